import fs from 'node:fs';
import path from 'node:path';
import { AuditLog, loadPolicy, PolicyError, type ExecutorOptions, type Policy, type PolicyDocument } from '@toolwright/executor';
import { ToolRegistry, RegistryError, type SessionToolkit } from '@toolwright/registry';
import {
  DEFAULT_PROTECTED_PATHS,
  WorkspacePolicy,
  registerCoreTools,
  coreToolsPathResolvers,
  coreToolsRiskLevels,
  type CoreToolsEnvironment,
  type WorkspaceConfig,
} from '@toolwright/core-tools';
import { decideSandbox, probeSandbox } from '@toolwright/sandbox';
import type { LoadedTools } from './load-tools.js';
import { projectTypeScript } from './project-typescript.js';
import { emptyFileProblem } from './config/empty-file.js';
import { CliError } from './cli-error.js';
import { loadCliSettings, type CliSettings, type ConfigFlags, type PolicySource } from './config/cli-settings.js';
import { implicitWorkspaceProblem } from './config/implicit-workspace.js';
import { hostCodePaths } from './host-code.js';
import { formatConfigIssues } from './config/config-issues.js';
import { perSessionIssues } from './config/per-session-issues.js';
import { selectTools } from './config/select-tools.js';
import { deniedPathsOf } from './config/denied-paths.js';

type Io = { err: (s: string) => void };

/**
 * The registry the CLI works on: the core tools bound to the workspace (unless `core` is false),
 * then a project's own tools, then the config file's `tools.include`/`exclude`. A project tool named
 * like a core tool is a usage error, not a crash; so is a `tools.perSession` entry the project lacks.
 */
export async function buildRegistry(
  options: {
    project?: string;
    core: boolean;
    workspace?: string;
    env?: CoreToolsEnvironment;
    tools?: CliSettings['tools'];
    configFile?: string;
    onCompile?: (why: string) => void;
  },
  io: Io,
): Promise<ProjectRegistry> {
  const registry = new ToolRegistry();
  const perSession = options.tools?.perSession ?? [];
  let sessionToolkits: SessionToolkit[] = [];
  if (options.core) registerCoreTools(registry, options.env ?? { workspace: openWorkspace(options.workspace ?? '.') });
  if (options.project !== undefined) {
    try {
      // Loaded only for a project: it brings the compiler and the transformer (a project on TypeScript 7,
      // which has no compiler API, still calls and serves the core tools and compiled declarations).
      // On TypeScript 7 the native compiler reads the declarations and the project's own build runs the tools.
      const project = path.resolve(options.project);
      const typescript = projectTypeScript(fs.existsSync(project) && fs.statSync(project).isDirectory() ? project : path.dirname(project));
      let loaded: LoadedTools;
      if (typescript.major === 7) {
        const { loadProjectTools7 } = await import('./load-tools-7.js');
        loaded = await loadProjectTools7(options.project, typescript, registry, new Set(perSession));
      } else {
        const { loadProjectTools } = await import('./load-tools.js');
        loaded = await loadProjectTools(options.project, registry, new Set(perSession), options.onCompile);
      }
      const issues = perSessionIssues(perSession, { path: options.project, ...loaded });
      if (issues.length > 0) throw new CliError(formatConfigIssues(options.configFile ?? 'toolwright.config.json', issues), 2);
      for (const name of loaded.skipped) io.err(`note: toolkit class ${name} needs constructor arguments; construct and register it in your own program.\n`);
      sessionToolkits = loaded.sessionToolkits;
    } catch (error) {
      if (error instanceof RegistryError)
        throw new CliError(
          `${options.project}: ${error.message}${options.core ? ' (the core tools are registered too; pass --no-core to leave them out)' : ''}`,
          2,
        );
      throw error;
    }
  } else if (perSession.length > 0) {
    io.err(
      `note: ${options.configFile ?? 'toolwright.config.json'}: $.tools.perSession names toolkit classes of a project, but no --project is given; it has no effect.\n`,
    );
  }
  if (options.tools) selectTools(registry, options.tools);
  return { registry, sessionToolkits };
}

/** A registry with the project's toolkits kept per session, whose sessions the server ends. */
export interface ProjectRegistry {
  registry: ToolRegistry;
  sessionToolkits: SessionToolkit[];
}

export function openWorkspace(dir: string | WorkspaceConfig): WorkspacePolicy {
  const config = typeof dir === 'string' ? { root: dir } : dir;
  for (const [scope, given] of [
    ['workspace', config.root],
    ['shared', config.shared],
    ['public', config.public],
  ] as const) {
    if (given === undefined) continue;
    const root = path.resolve(given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(root);
    } catch {
      throw new CliError(
        scope === 'workspace' ? `The workspace ${root} does not exist; pass --workspace <dir>.` : `The ${scope} root ${root} does not exist.`,
        2,
      );
    }
    if (!stat.isDirectory()) throw new CliError(`The ${scope === 'workspace' ? 'workspace' : `${scope} root`} ${root} is not a directory.`, 2);
  }
  return new WorkspacePolicy({ ...config, root: path.resolve(config.root) });
}

/** Reads and checks a policy file (its rules parse and their examples hold), or a usage error saying why. */
export function loadPolicyFile(file: string, registry: ToolRegistry, text: string = readPolicyText(file)): Policy {
  const empty = emptyFileProblem(file, text);
  if (empty) throw new CliError(empty, 2);
  try {
    return loadPolicy(text, (name) => registry.get(name)?.declaration);
  } catch (error) {
    if (error instanceof PolicyError) throw new CliError(`${file}: ${error.message}`, 2);
    throw error;
  }
}

function readPolicyText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read the policy ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, 2);
  }
}

/** A policy from a file or from the config file's inline `policy`; errors name where it came from. */
export function loadPolicySource(source: PolicySource, registry: ToolRegistry): Policy {
  if ('file' in source) return loadPolicyFile(source.file, registry, source.text);
  try {
    return loadPolicy(source.document, (name) => registry.get(name)?.declaration);
  } catch (error) {
    if (error instanceof PolicyError) throw new CliError(`${source.configFile}: $.policy: ${error.message}`, 2);
    throw error;
  }
}

/** The flags of the commands that read the config file. */
export type EnvironmentFlags = ConfigFlags & {
  project?: string;
  /** Told why the project is compiled, when it is (its last build is served when nothing it read has changed). */
  onCompile?: (why: string) => void;
};

/**
 * `list` and `policy`: the settings (flags over the config file), the core tools' environment and the
 * registry. The workspace protects the files that configure this very run — the config file, the
 * policy file and the audit log, wherever they lie in a scope — besides its protected paths, so a
 * model cannot rewrite what the next `call` or `serve` obeys; and it hides the paths the policy's
 * deny rules on reading tools name (`deniedPathsOf`) from every tool.
 */
export async function openToolEnvironment(flags: EnvironmentFlags, io: Io): Promise<{ settings: CliSettings; env: CoreToolsEnvironment } & ProjectRegistry> {
  const settings = withPolicyText(loadCliSettings(flags));
  const implicit = settings.workspaceFrom === 'cwd' ? implicitWorkspaceProblem(settings.workspace.root) : undefined;
  if (implicit) throw new CliError(implicit, 2);
  const deniedPaths = deniedPathsOf(policyDocumentOf(settings.policy));
  const workspace = openWorkspace({ ...withOwnFilesProtected(settings, hostCodePaths(flags.project)), ...(deniedPaths.length > 0 ? { deniedPaths } : {}) });
  const env: CoreToolsEnvironment = { ...settings.coreTools, workspace };
  const built = await buildRegistry(
    {
      core: settings.tools.core,
      env,
      tools: settings.tools,
      ...(flags.project !== undefined ? { project: flags.project } : {}),
      ...(settings.configFile !== undefined ? { configFile: settings.configFile } : {}),
      ...(flags.onCompile ? { onCompile: flags.onCompile } : {}),
    },
    io,
  );
  return { settings, env, ...built };
}

/**
 * The settings with the policy file read once: the workspace's hidden paths and the executor's policy
 * come from the same text. A file that cannot be read is left for `loadPolicySource` to report, when
 * the command uses the policy (`list` does not).
 */
function withPolicyText(settings: CliSettings): CliSettings {
  const source = settings.policy;
  if (source === undefined || !('file' in source) || source.text !== undefined) return settings;
  try {
    return { ...settings, policy: { file: source.file, text: fs.readFileSync(source.file, 'utf8') } };
  } catch {
    return settings;
  }
}

/** The policy's rules as written, or undefined when they are not JSON (loading the policy then says why). */
function policyDocumentOf(source: PolicySource | undefined): PolicyDocument | undefined {
  if (source === undefined) return undefined;
  if (!('file' in source)) return source.document;
  try {
    return JSON.parse(source.text ?? '') as PolicyDocument;
  } catch {
    return undefined;
  }
}

/** The executor options that bind the core tools' hooks: their risk levels and how they resolve path arguments. */
export function coreToolHooks(env: CoreToolsEnvironment): Pick<ExecutorOptions, 'riskLevel' | 'pathResolvers'> {
  return { riskLevel: coreToolsRiskLevels(env), pathResolvers: coreToolsPathResolvers(env) };
}

/**
 * The workspace config with Toolwright's own files added to its protected paths (anchored where they lie). An audit
 * log's folder is protected whole, unless it is a scope's root: its rotated files (`<log>.1` …) and its lock
 * (`<log>.lock`) lie beside it under names no list can hold in advance, and a command that could write them would
 * rewrite the history or plant a lock (found by a review: only the log's own name was protected).
 */
export function withOwnFilesProtected(settings: CliSettings, hostCode: readonly string[] = []): WorkspaceConfig {
  const config = settings.workspace;
  const files = [settings.configFile, settings.policy !== undefined && 'file' in settings.policy ? settings.policy.file : undefined, ...hostCode].filter(
    (file): file is string => file !== undefined,
  );
  const roots = [config.root, config.shared, config.public].filter((root): root is string => root !== undefined).map(realOrResolved);
  const within = (real: string) =>
    roots
      .map((root) => path.relative(root, real))
      .filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel))
      .map((rel) => `/${rel.split(path.sep).join('/')}`);
  const realFile = (file: string) => path.join(realOrResolved(path.dirname(file)), path.basename(file));
  const anchored = files.flatMap((file) => within(realFile(file)));
  if (typeof settings.audit === 'object' && settings.audit.path !== undefined) {
    const log = realFile(settings.audit.path);
    const folder = within(path.dirname(log));
    anchored.push(...(folder.length > 0 ? folder : within(log)));
  }
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

export interface CallEnvironment extends ProjectRegistry {
  workspaceRoot: string;
  executorOptions: Partial<ExecutorOptions>;
  /** Says on stderr when shell commands would run without the kernel sandbox, or not at all (once per process). */
  warnWithoutSandbox(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Everything `toolwright call` and `serve` run with: the registry, the policy, the core tools' risk
 * levels, the config file's executor settings and a durable audit log
 * (`<workspace>/.toolwright/audit.jsonl` unless `--audit` or the config file says otherwise).
 * `stateless` (HTTP without sessions) refuses toolkits kept per session: there would be no session to keep them for.
 */
export async function openCallEnvironment(options: EnvironmentFlags & { defaultAuditName?: string; stateless?: boolean }, io: Io): Promise<CallEnvironment> {
  const { settings, env, registry, sessionToolkits } = await openToolEnvironment(options, io);
  if (options.stateless && sessionToolkits.length > 0) {
    throw new CliError(
      `${settings.configFile}: $.tools.perSession: ${sessionToolkits.map((kit) => kit.toolkit.name).join(', ')} keep${sessionToolkits.length === 1 ? 's' : ''} an instance per session, but stateless HTTP has no sessions; serve with --sessions (or --mcp stdio).`,
      2,
    );
  }
  const workspaceRoot = env.workspace.rootOf('private');
  const executorOptions: Partial<ExecutorOptions> = { ...coreToolHooks(env), ...settings.executor };
  // What the core tools' workspace keeps from tools (the project's own files, the audit log, deny rules) binds the
  // tools that reach files by their own means too (a WebAssembly module's host calls, a subprocess's mounts).
  executorOptions.workspace = workspaceRoot;
  executorOptions.workspaceRules = { protectedPaths: env.workspace.protectedEntries, deniedPaths: env.workspace.deniedPatterns };
  if (settings.policy !== undefined) executorOptions.policy = loadPolicySource(settings.policy, registry);
  let log: AuditLog | undefined;
  if (settings.audit !== 'none') {
    const file = path.resolve(settings.audit?.path ?? path.join(workspaceRoot, '.toolwright', options.defaultAuditName ?? 'audit.jsonl'));
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      log = await AuditLog.open(file, {
        durability: settings.audit?.durability ?? 'always',
        onNotice: (message) => io.err(`audit: ${message}\n`),
        ...(settings.audit?.rotate ? { rotate: settings.audit.rotate } : {}),
      });
    } catch (error) {
      throw new CliError(`Cannot open the audit log ${file}: ${(error as Error).message} (pass --audit <file> or --audit none)`, 1);
    }
    executorOptions.audit = log;
  }
  return {
    registry,
    sessionToolkits,
    workspaceRoot,
    executorOptions,
    warnWithoutSandbox: async () => {
      if (settings.tools.core) await warnWithoutSandbox(env, io);
    },
    close: async () => {
      await log?.close();
    },
  };
}

let warned = false;

/** `call` (of a shell tool) and `serve` say on stderr when shell commands will run without the kernel sandbox, or not at all. */
async function warnWithoutSandbox(env: CoreToolsEnvironment, io: Io): Promise<void> {
  if (warned) return;
  warned = true;
  const shell = env.shell ?? { backend: 'host' };
  if (shell.backend === 'disabled') return;
  const decision = decideSandbox(shell.sandbox ?? 'auto', await probeSandbox());
  if (decision.run === 'unsandboxed' && decision.warning) io.err(`warning: ${decision.warning} (run toolwright doctor)\n`);
  if (decision.run === 'refused') io.err(`warning: ${decision.reason}; shell_exec will refuse every command (run toolwright doctor)\n`);
}
