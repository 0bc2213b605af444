import { AddressPolicy } from '@toolwright/core-tools';
import { readableProblem } from '@toolwright/sandbox';
import type { ConfigIssue } from './config-issues.js';
import type { ToolwrightConfig } from './toolwright-config.js';

/**
 * What the schema cannot say: settings that only fit one shell backend, a search provider's needs
 * (brave needs a key, the key's variable must be set), ports in range, parseable address ranges.
 * Runs only on a file that matched the schema.
 */
export function checkConfig(config: ToolwrightConfig, env: NodeJS.ProcessEnv): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const shell = config.shell;
  if (shell?.maxSessions !== undefined && shell.backend !== 'session') {
    issues.push({ path: '$.shell.maxSessions', message: 'applies to "backend": "session" only' });
  }
  if (shell?.reason !== undefined && shell.backend !== 'disabled') {
    issues.push({ path: '$.shell.reason', message: 'applies to "backend": "disabled" only' });
  }
  shell?.readablePaths?.forEach((entry, i) => {
    if (!entry.startsWith('/')) issues.push({ path: `$.shell.readablePaths[${i}]`, message: `must be an absolute directory (found "${entry}")` });
    else {
      const problem = readableProblem(entry, undefined);
      if (problem) issues.push({ path: `$.shell.readablePaths[${i}]`, message: `cannot be shown in the sandbox: ${problem} (found "${entry}")` });
    }
  });
  if (shell?.backend === 'disabled') {
    for (const key of [
      'allow',
      'defaultAllow',
      'permit',
      'timeoutMs',
      'maxOutputBytes',
      'maxJobs',
      'maxLength',
      'maxCommands',
      'passEnv',
      'sandbox',
      'network',
      'readablePaths',
      'limits',
    ] as const) {
      if (shell[key] !== undefined)
        issues.push({ path: `$.shell.${key}`, message: 'has no effect with "backend": "disabled"; remove it or choose another backend' });
    }
  }
  config.web?.allowPorts?.forEach((port, index) => {
    if (port < 1 || port > 65535) issues.push({ path: `$.web.allowPorts[${index}]`, message: `must be a port number from 1 to 65535 (found ${port})` });
  });
  config.web?.allowAddresses?.forEach((entry, index) => {
    try {
      new AddressPolicy([entry]);
    } catch {
      issues.push({
        path: `$.web.allowAddresses[${index}]`,
        message: `must be an IP address or a CIDR range such as 10.0.0.0/8 (found ${JSON.stringify(entry)})`,
      });
    }
  });
  const search = config.web?.search;
  if (search) {
    if (search.endpoint !== undefined && !/^https?:\/\/[^/]/.test(search.endpoint)) {
      issues.push({ path: '$.web.search.endpoint', message: `must be an http(s) URL (found ${JSON.stringify(search.endpoint)})` });
    }
    if (search.provider === 'searxng' && search.endpoint === undefined) {
      issues.push({ path: '$.web.search.endpoint', message: 'is required for the searxng provider: the URL of the instance' });
    }
    if (search.provider === 'brave' && search.apiKeyEnv === undefined) {
      issues.push({
        path: '$.web.search.apiKeyEnv',
        message: 'is required for the brave provider: the name of the environment variable that holds the API key',
      });
    }
    if (search.apiKeyEnv !== undefined && !env[search.apiKeyEnv]?.trim()) {
      issues.push({
        path: '$.web.search.apiKeyEnv',
        message: `names the environment variable ${search.apiKeyEnv}, which is not set or empty; set it to the ${search.provider} API key`,
      });
    }
  }
  return issues;
}
