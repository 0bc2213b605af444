import path from 'node:path';
import type { AuditRotation, Durability, ExecutorOptions, PolicyDocument } from '@toolwright/executor';
import {
  DEFAULT_SHELL_ALLOW,
  DEFAULT_SHELL_POLICY,
  braveSearchProvider,
  searxngProvider,
  type CoreToolsEnvironment,
  type ShellConfig,
  type WebConfig,
  type WorkspaceConfig,
} from '@toolwright/core-tools';
import { findConfigFile, loadConfigFile, type LoadedConfig } from './load-config.js';
import type { ShellSection, ToolsSection, WebSection } from './toolwright-config.js';

/** The flags every config-reading command shares; a flag given wins over the file. */
export interface ConfigFlags {
  config?: string;
  workspace?: string;
  policy?: string;
  audit?: string;
  /** False for `--no-core`. */
  core?: boolean;
}

/**
 * Where a policy comes from: a file (with its text once read, so every use reads the same policy),
 * or rules written inline in the config file at `$.policy`.
 */
export type PolicySource = { file: string; text?: string } | { document: PolicyDocument; configFile: string };

/** Everything the commands need from the flags and the config file, paths resolved. */
export interface CliSettings {
  /** The config file read, if any. */
  configFile?: string;
  workspace: WorkspaceConfig;
  /** Where the workspace came from: `--workspace`, the config file, or the current directory (implicitly). */
  workspaceFrom: 'flag' | 'config' | 'cwd';
  /** The core tools' settings besides the workspace. */
  coreTools: Omit<CoreToolsEnvironment, 'workspace'>;
  policy?: PolicySource;
  audit?: 'none' | { path?: string; durability?: Durability; rotate?: AuditRotation };
  executor: Pick<ExecutorOptions, 'riskMode' | 'maxOutputBytes' | 'doomLoop' | 'cache'>;
  tools: Required<Pick<ToolsSection, 'core'>> & Pick<ToolsSection, 'include' | 'exclude' | 'perSession'>;
}

/** Finds and reads the config file (see `findConfigFile`), then lays the flags over it. */
export function loadCliSettings(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliSettings {
  const file = findConfigFile({
    cwd,
    ...(flags.config !== undefined ? { config: flags.config } : {}),
    ...(flags.workspace !== undefined ? { workspace: flags.workspace } : {}),
  });
  return settingsOf(file === undefined ? undefined : loadConfigFile(file, env), flags, env, cwd);
}

export function settingsOf(loaded: LoadedConfig | undefined, flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliSettings {
  const config = loaded?.config ?? {};
  const fromFile = (p: string) => path.resolve(loaded?.dir ?? cwd, p);
  const ws = config.workspace ?? {};
  const workspace: WorkspaceConfig = {
    root: flags.workspace !== undefined ? path.resolve(cwd, flags.workspace) : ws.root !== undefined ? fromFile(ws.root) : cwd,
    ...(ws.shared !== undefined ? { shared: fromFile(ws.shared) } : {}),
    ...(ws.public !== undefined ? { public: fromFile(ws.public) } : {}),
    ...(ws.protectedPaths !== undefined ? { protectedPaths: ws.protectedPaths } : {}),
  };
  const coreTools: CliSettings['coreTools'] = {};
  if (config.shell) coreTools.shell = shellConfigOf(config.shell);
  if (config.web) coreTools.web = webConfigOf(config.web, env);
  if (config.vault) coreTools.vault = { root: fromFile(config.vault.root) };
  let policy: PolicySource | undefined;
  if (flags.policy !== undefined) policy = { file: path.resolve(cwd, flags.policy) };
  else if (typeof config.policy === 'string') policy = { file: fromFile(config.policy) };
  else if (config.policy) policy = { document: config.policy, configFile: loaded!.file };
  let audit: CliSettings['audit'];
  if (flags.audit === 'none' || (flags.audit === undefined && config.audit === 'none')) audit = 'none';
  else if (flags.audit !== undefined || config.audit !== undefined) {
    const section = config.audit === 'none' ? {} : (config.audit ?? {});
    const file = flags.audit !== undefined ? path.resolve(cwd, flags.audit) : section.path !== undefined ? fromFile(section.path) : undefined;
    audit = {
      ...(file !== undefined ? { path: file } : {}),
      ...(section.durability !== undefined ? { durability: section.durability } : {}),
      ...(section.rotate !== undefined ? { rotate: { ...section.rotate } } : {}),
    };
  }
  const executor: CliSettings['executor'] = {};
  if (config.risk !== undefined) executor.riskMode = config.risk;
  if (config.maxOutputBytes !== undefined) executor.maxOutputBytes = config.maxOutputBytes;
  if (config.repeatedCalls === false) executor.doomLoop = false;
  else if (config.repeatedCalls !== undefined) {
    const { per, ...rest } = config.repeatedCalls;
    executor.doomLoop = { ...rest, ...(per !== undefined ? { per: per === 'server' ? 'executor' : 'caller' } : {}) };
  }
  if (config.cache === true) executor.cache = {};
  else if (typeof config.cache === 'object') {
    const { dir, maxBytes, maxMemoryChars } = config.cache;
    executor.cache = {
      ...(dir !== undefined ? { dir: fromFile(dir) } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(maxMemoryChars !== undefined ? { maxMemoryChars } : {}),
    };
  }
  const tools: CliSettings['tools'] = {
    core: flags.core !== false && config.tools?.core !== false,
    ...(config.tools?.include ? { include: config.tools.include } : {}),
    ...(config.tools?.exclude ? { exclude: config.tools.exclude } : {}),
    ...(config.tools?.perSession ? { perSession: config.tools.perSession } : {}),
  };
  const workspaceFrom = flags.workspace !== undefined ? 'flag' : ws.root !== undefined ? 'config' : 'cwd';
  return {
    ...(loaded ? { configFile: loaded.file } : {}),
    workspace,
    workspaceFrom,
    coreTools,
    ...(policy ? { policy } : {}),
    ...(audit ? { audit } : {}),
    executor,
    tools,
  };
}

/** `allow` adds to the default allowlist unless `defaultAllow` is false; `permit` replaces the default `["glob"]`. */
export function shellConfigOf(section: ShellSection): ShellConfig {
  const backend = section.backend ?? 'host';
  if (backend === 'disabled') return { backend, ...(section.reason !== undefined ? { reason: section.reason } : {}) };
  const allow = [...(section.defaultAllow === false ? [] : DEFAULT_SHELL_ALLOW), ...(section.allow ?? [])];
  const policy = {
    allow: [...new Set(allow)],
    permit: section.permit ?? DEFAULT_SHELL_POLICY.permit ?? [],
    ...(section.maxLength !== undefined ? { maxLength: section.maxLength } : {}),
    ...(section.maxCommands !== undefined ? { maxCommands: section.maxCommands } : {}),
  };
  const running = {
    policy,
    ...(section.timeoutMs !== undefined ? { timeoutMs: section.timeoutMs } : {}),
    ...(section.maxOutputBytes !== undefined ? { maxOutputBytes: section.maxOutputBytes } : {}),
    ...(section.maxJobs !== undefined ? { maxJobs: section.maxJobs } : {}),
    ...(section.passEnv !== undefined ? { passEnv: section.passEnv } : {}),
    ...(section.sandbox !== undefined ? { sandbox: section.sandbox } : {}),
    ...(section.network !== undefined ? { network: section.network } : {}),
    ...(section.readablePaths !== undefined ? { readablePaths: section.readablePaths } : {}),
    ...(section.limits !== undefined ? { limits: section.limits } : {}),
  };
  return backend === 'session'
    ? { backend, ...running, ...(section.maxSessions !== undefined ? { maxSessions: section.maxSessions } : {}) }
    : { backend, ...running };
}

/** The search key is read from the variable the file names (`checkConfig` made sure it is set). */
export function webConfigOf(section: WebSection, env: NodeJS.ProcessEnv): WebConfig {
  const { search, ...limits } = section;
  const web: WebConfig = { ...limits };
  if (search) {
    const apiKey = search.apiKeyEnv !== undefined ? env[search.apiKeyEnv]?.trim() : undefined;
    web.search =
      search.provider === 'brave'
        ? braveSearchProvider({ apiKey: apiKey ?? '', ...(search.endpoint !== undefined ? { endpoint: search.endpoint } : {}) })
        : searxngProvider({ endpoint: search.endpoint ?? '', ...(apiKey ? { apiKey } : {}) });
  }
  return web;
}
