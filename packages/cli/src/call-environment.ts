import fs from 'node:fs';
import path from 'node:path';
import { AuditLog, loadPolicy, PolicyError, type ExecutorOptions, type Policy } from '@toolwright/executor';
import { ToolRegistry, RegistryError } from '@toolwright/registry';
import { DEFAULT_PROTECTED_PATHS, WorkspacePolicy, registerCoreTools, coreToolsPathResolvers, coreToolsRiskLevels, type CoreToolsEnvironment, type WorkspaceConfig } from '@toolwright/core-tools';
import { CliError } from './cli-error.js';
import { loadProjectTools } from './load-tools.js';
import { loadCliSettings, type CliSettings, type ConfigFlags, type PolicySource } from './config/cli-settings.js';
import { selectTools } from './config/select-tools.js';

type Io = { err: (s: string) => void };

/**
 * The registry the CLI works on: the core tools bound to the workspace (unless `core` is false),
 * then a project's own tools, then the config file's `tools.include`/`exclude`. A project tool named
 * like a core tool is a usage error, not a crash.
 */
export function buildRegistry(options: { project?: string; core: boolean; workspace?: string; env?: CoreToolsEnvironment; tools?: CliSettings['tools'] }, io: Io): ToolRegistry {
  const registry = new ToolRegistry();
  if (options.core) registerCoreTools(registry, options.env ?? { workspace: openWorkspace(options.workspace ?? '.') });
  if (options.project !== undefined) {
    try {
      const { skipped } = loadProjectTools(options.project, registry);
      for (const name of skipped) io.err(`note: toolkit class ${name} needs constructor arguments; construct and register it in your own program.\n`);
    } catch (error) {
      if (error instanceof RegistryError) throw new CliError(`${options.project}: ${error.message}${options.core ? ' (the core tools are registered too; pass --no-core to leave them out)' : ''}`, 2);
      throw error;
    }
  }
  if (options.tools) selectTools(registry, options.tools);
  return registry;
}

export function openWorkspace(dir: string | WorkspaceConfig): WorkspacePolicy {
  const config = typeof dir === 'string' ? { root: dir } : dir;
  for (const [scope, given] of [['workspace', config.root], ['shared', config.shared], ['public', config.public]] as const) {
    if (given === undefined) continue;
    const root = path.resolve(given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(root);
    } catch {
      throw new CliError(scope === 'workspace' ? `The workspace ${root} does not exist; pass --workspace <dir>.` : `The ${scope} root ${root} does not exist.`, 2);
    }
    if (!stat.isDirectory()) throw new CliError(`The ${scope === 'workspace' ? 'workspace' : `${scope} root`} ${root} is not a directory.`, 2);
  }
  return new WorkspacePolicy({ ...config, root: path.resolve(config.root) });
}

/** Reads and checks a policy file (its rules parse and their examples hold), or a usage error saying why. */
export function loadPolicyFile(file: string, registry: ToolRegistry): Policy {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read the policy ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, 2);
  }
  try {
    return loadPolicy(text, (name) => registry.get(name)?.declaration);
  } catch (error) {
    if (error instanceof PolicyError) throw new CliError(`${file}: ${error.message}`, 2);
    throw error;
  }
}

/** A policy from a file or from the config file's inline `policy`; errors name where it came from. */
export function loadPolicySource(source: PolicySource, registry: ToolRegistry): Policy {
  if ('file' in source) return loadPolicyFile(source.file, registry);
  try {
    return loadPolicy(source.document, (name) => registry.get(name)?.declaration);
  } catch (error) {
    if (error instanceof PolicyError) throw new CliError(`${source.configFile}: $.policy: ${error.message}`, 2);
    throw error;
  }
}

/** The flags of the commands that read the config file. */
export type EnvironmentFlags = ConfigFlags & { project?: string };

/**
 * `list` and `policy`: the settings (flags over the config file), the core tools' environment and the
 * registry. The workspace protects the files that configure this very run — the config file, the
 * policy file and the audit log, wherever they lie in a scope — besides its protected paths, so a
 * model cannot rewrite what the next `call` or `serve` obeys.
 */
export function openToolEnvironment(flags: EnvironmentFlags, io: Io): { settings: CliSettings; env: CoreToolsEnvironment; registry: ToolRegistry } {
  const settings = loadCliSettings(flags);
  const env: CoreToolsEnvironment = { ...settings.coreTools, workspace: openWorkspace(withOwnFilesProtected(settings)) };
  const registry = buildRegistry({ core: settings.tools.core, env, tools: settings.tools, ...(flags.project !== undefined ? { project: flags.project } : {}) }, io);
  return { settings, env, registry };
}

/** The executor options that bind the core tools' hooks: their risk levels and how they resolve path arguments. */
export function coreToolHooks(env: CoreToolsEnvironment): Pick<ExecutorOptions, 'riskLevel' | 'pathResolvers'> {
  return { riskLevel: coreToolsRiskLevels(env), pathResolvers: coreToolsPathResolvers(env) };
}

/** The workspace config with Toolwright's own files added to its protected paths (anchored where they lie). */
export function withOwnFilesProtected(settings: CliSettings): WorkspaceConfig {
  const config = settings.workspace;
  const files = [
    settings.configFile,
    settings.policy !== undefined && 'file' in settings.policy ? settings.policy.file : undefined,
    typeof settings.audit === 'object' ? settings.audit.path : undefined,
  ].filter((file): file is string => file !== undefined);
  const roots = [config.root, config.shared, config.public].filter((root): root is string => root !== undefined).map(realOrResolved);
  const anchored = files.flatMap((file) => {
    const real = path.join(realOrResolved(path.dirname(file)), path.basename(file));
    return roots.map((root) => path.relative(root, real)).filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)).map((rel) => `/${rel.split(path.sep).join('/')}`);
  });
  const base = config.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  return { ...config, protectedPaths: [...new Set([...base, 'toolwright.config.json', 'toolwright.policy.json', ...anchored])] };
}

function realOrResolved(file: string): string {
  try {
    return fs.realpathSync.native(path.resolve(file));
  } catch {
    return path.resolve(file);
  }
}

export interface CallEnvironment {
  registry: ToolRegistry;
  workspaceRoot: string;
  executorOptions: Partial<ExecutorOptions>;
  close(): Promise<void>;
}

/**
 * Everything `toolwright call` and `serve` run with: the registry, the policy, the core tools' risk
 * levels, the config file's executor settings and a durable audit log
 * (`<workspace>/.toolwright/audit.jsonl` unless `--audit` or the config file says otherwise).
 */
export async function openCallEnvironment(options: EnvironmentFlags & { defaultAuditName?: string }, io: Io): Promise<CallEnvironment> {
  const { settings, env, registry } = openToolEnvironment(options, io);
  const workspaceRoot = env.workspace.rootOf('private');
  const executorOptions: Partial<ExecutorOptions> = { ...coreToolHooks(env), ...settings.executor };
  if (settings.policy !== undefined) executorOptions.policy = loadPolicySource(settings.policy, registry);
  let log: AuditLog | undefined;
  if (settings.audit !== 'none') {
    const file = path.resolve(settings.audit?.path ?? path.join(workspaceRoot, '.toolwright', options.defaultAuditName ?? 'audit.jsonl'));
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      log = await AuditLog.open(file, {
        durability: settings.audit?.durability ?? 'always', onNotice: (message) => io.err(`audit: ${message}\n`),
        ...(settings.audit?.rotate ? { rotate: settings.audit.rotate } : {}),
      });
    } catch (error) {
      throw new CliError(`Cannot open the audit log ${file}: ${(error as Error).message} (pass --audit <file> or --audit none)`, 1);
    }
    executorOptions.audit = log;
  }
  return { registry, workspaceRoot, executorOptions, close: async () => { await log?.close(); } };
}
