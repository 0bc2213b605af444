import path from 'node:path';
import { DeferredToolSet } from '@toolwright/executor';
import type { FileTaskStore, HttpServeOptions, TaskFileInUseError } from '@toolwright/mcp';
import { ToolRegistry } from '@toolwright/registry';
import { CliError } from '../cli-error.js';

/** The flags of `toolwright serve`, as parsed. */
export interface ServeFlags {
  mcp?: string;
  port: string;
  host: string;
  sessions: boolean;
  'allow-host'?: string[];
  'allow-origin'?: string[];
  'auth-token-env'?: string;
  'insecure-no-auth': boolean;
  'session-idle-timeout'?: string;
  'max-sessions'?: string;
  'max-body-bytes'?: string;
  'request-timeout'?: string;
  'state-key-env'?: string;
  tasks?: string;
  defer?: string[];
}

const HTTP_ONLY = [
  'allow-host',
  'allow-origin',
  'auth-token-env',
  'insecure-no-auth',
  'session-idle-timeout',
  'max-sessions',
  'max-body-bytes',
  'request-timeout',
  'state-key-env',
] as const;

/**
 * The HTTP server's options from the flags, checked: numbers are numbers, the token's variable is
 * set, and HTTP-only flags are not given to stdio (where they would silently do nothing).
 */
export function httpServeOptions(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): HttpServeOptions & { port: number } {
  if (flags.mcp !== 'http') {
    const given = HTTP_ONLY.filter((name) => flags[name] !== undefined && flags[name] !== false);
    if (given.length > 0) throw new CliError(`--${given[0]} applies to --mcp http only.`, 2);
  }
  const port = Number(flags.port);
  if (!/^\d+$/.test(flags.port) || port > 65535) throw new CliError(`--port must be a port number, not '${flags.port}'.`, 2);
  const options: HttpServeOptions & { port: number } = { port, host: flags.host, sessions: flags.sessions };
  if (flags['allow-host']) options.allowedHosts = flags['allow-host'];
  if (flags['allow-origin']) options.allowedOrigins = flags['allow-origin'];
  if (flags['insecure-no-auth']) options.insecureNoAuth = true;
  const tokenVariable = flags['auth-token-env'];
  if (tokenVariable !== undefined) {
    const token = env[tokenVariable]?.trim();
    if (!token)
      throw new CliError(
        `--auth-token-env ${tokenVariable}: the environment variable ${tokenVariable} is not set or empty; it must hold the bearer token clients send.`,
        2,
      );
    options.bearerToken = token;
  }
  if (flags['session-idle-timeout'] !== undefined)
    options.sessionIdleTimeoutMs = count(flags['session-idle-timeout'], '--session-idle-timeout', 'seconds') * 1000;
  if (flags['max-sessions'] !== undefined) options.maxSessions = count(flags['max-sessions'], '--max-sessions', 'sessions', true);
  if (flags['max-body-bytes'] !== undefined) options.maxBodyBytes = count(flags['max-body-bytes'], '--max-body-bytes', 'bytes', true);
  if (flags['request-timeout'] !== undefined) options.requestTimeoutMs = count(flags['request-timeout'], '--request-timeout', 'seconds') * 1000;
  return options;
}

function count(text: string, flag: string, unit: string, integer = false): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0) || (integer && !Number.isInteger(value))) {
    throw new CliError(`${flag} takes a positive ${integer ? 'whole ' : ''}number of ${unit}, not '${text}'.`, 2);
  }
  return value;
}

/**
 * The secret that seals a 2026-07-28 client's answers between the rounds of a call (`--state-key-env NAME`): the same
 * in every process behind one balancer, so a retry may reach any of them. At least 32 bytes; none given: a random key
 * of the process.
 */
export function stateKeyOf(flags: Pick<ServeFlags, 'state-key-env'>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const variable = flags['state-key-env'];
  if (variable === undefined) return undefined;
  const key = env[variable];
  if (!key || Buffer.byteLength(key) < 32)
    throw new CliError(
      `--state-key-env ${variable}: the environment variable ${variable} must hold a secret of at least 32 bytes${key ? ` (it holds ${Buffer.byteLength(key)})` : ''}.`,
      2,
    );
  return key;
}

/**
 * Where `serve` keeps its tasks: `--tasks none` in memory; `--tasks <file>` in that file (an error when a live process
 * holds it); by default `<workspace>/.toolwright/tasks.jsonl`, or memory (with a warning) when another `serve` of the
 * workspace holds that file. Undefined: in memory.
 */
export function openTaskStore(
  flag: string | undefined,
  workspaceRoot: string,
  io: { err(text: string): void },
  classes: { FileTaskStore: typeof FileTaskStore; TaskFileInUseError: typeof TaskFileInUseError },
): FileTaskStore | undefined {
  if (flag === 'none') return undefined;
  const file = path.resolve(flag ?? path.join(workspaceRoot, '.toolwright', 'tasks.jsonl'));
  try {
    return new classes.FileTaskStore(file);
  } catch (error) {
    if (error instanceof classes.TaskFileInUseError && flag === undefined) {
      io.err(`toolwright: ${error.message}; this server keeps its tasks in memory (--tasks <file> to keep them)\n`);
      return undefined;
    }
    throw new CliError(`toolwright serve --tasks: ${(error as Error).message}`, error instanceof classes.TaskFileInUseError ? 2 : 1);
  }
}

/**
 * The globs of `--defer` (repeatable, or a comma list; a comma inside braces belongs to the glob: `{jira,linear}_*`),
 * checked as the deferred loading checks them; undefined without the flag: nothing is deferred by the server.
 */
export function deferGlobsOf(flags: Pick<ServeFlags, 'defer'>): string[] | undefined {
  if (flags.defer === undefined) return undefined;
  const globs = flags.defer.flatMap(splitOutsideBraces).map((glob) => glob.trim());
  if (globs.some((glob) => glob === '')) throw new CliError('--defer takes globs of tool names (github_*, or a comma list), not an empty one.', 2);
  try {
    new DeferredToolSet(new ToolRegistry(), { defer: globs });
  } catch (error) {
    throw new CliError(`--defer: ${(error as Error).message.replace(/^DeferredToolSet: /, '')}.`, 2);
  }
  return globs;
}

function splitOutsideBraces(text: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const char of text) {
    if (char === ',' && depth === 0) parts.push('');
    else {
      if (char === '{') depth++;
      else if (char === '}') depth = Math.max(0, depth - 1);
      parts[parts.length - 1] += char;
    }
  }
  return parts;
}
