import fs from 'node:fs';
import path from 'node:path';
import { AuditLog, loadPolicy, PolicyError, type ExecutorOptions, type Policy } from '@toolwright/executor';
import { ToolRegistry, RegistryError } from '@toolwright/registry';
import { WorkspacePolicy, registerCoreTools, coreToolsRiskLevels, type CoreToolsEnvironment } from '@toolwright/core-tools';
import { CliError } from './cli-error.js';
import { loadProjectTools } from './load-tools.js';

type Io = { err: (s: string) => void };

/**
 * The registry the CLI works on: the core tools bound to the workspace (unless `core` is false),
 * then a project's own tools. A project tool named like a core tool is a usage error, not a crash.
 */
export function buildRegistry(options: { project?: string; core: boolean; workspace: string; env?: CoreToolsEnvironment }, io: Io): ToolRegistry {
  const registry = new ToolRegistry();
  if (options.core) registerCoreTools(registry, options.env ?? { workspace: openWorkspace(options.workspace) });
  if (options.project !== undefined) {
    try {
      const { skipped } = loadProjectTools(options.project, registry);
      for (const name of skipped) io.err(`note: toolkit class ${name} needs constructor arguments; construct and register it in your own program.\n`);
    } catch (error) {
      if (error instanceof RegistryError) throw new CliError(`${options.project}: ${error.message}${options.core ? ' (the core tools are registered too; pass --no-core to leave them out)' : ''}`, 2);
      throw error;
    }
  }
  return registry;
}

export function openWorkspace(dir: string): WorkspacePolicy {
  const root = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch {
    throw new CliError(`The workspace ${root} does not exist; pass --workspace <dir>.`, 2);
  }
  if (!stat.isDirectory()) throw new CliError(`The workspace ${root} is not a directory.`, 2);
  return new WorkspacePolicy({ root });
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

export interface CallEnvironment {
  registry: ToolRegistry;
  workspaceRoot: string;
  executorOptions: Partial<ExecutorOptions>;
  close(): Promise<void>;
}

/**
 * Everything `toolwright call` runs with: the registry, the policy, the core tools' risk levels and a
 * durable audit log (`<workspace>/.toolwright/audit.jsonl` unless `--audit` says otherwise).
 */
export async function openCallEnvironment(options: { workspace: string; project?: string; policy?: string; audit?: string; defaultAuditName?: string }, io: Io): Promise<CallEnvironment> {
  const env: CoreToolsEnvironment = { workspace: openWorkspace(options.workspace) };
  const workspaceRoot = env.workspace.rootOf('private');
  const registry = buildRegistry({ core: true, workspace: workspaceRoot, env, ...(options.project !== undefined ? { project: options.project } : {}) }, io);
  const executorOptions: Partial<ExecutorOptions> = { riskLevel: coreToolsRiskLevels(env) };
  if (options.policy !== undefined) executorOptions.policy = loadPolicyFile(options.policy, registry);
  let log: AuditLog | undefined;
  if (options.audit !== 'none') {
    const file = path.resolve(options.audit ?? path.join(workspaceRoot, '.toolwright', options.defaultAuditName ?? 'audit.jsonl'));
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      log = await AuditLog.open(file, { durability: 'always', onNotice: (message) => io.err(`audit: ${message}\n`) });
    } catch (error) {
      throw new CliError(`Cannot open the audit log ${file}: ${(error as Error).message} (pass --audit <file> or --audit none)`, 1);
    }
    executorOptions.audit = log;
  }
  return { registry, workspaceRoot, executorOptions, close: async () => { await log?.close(); } };
}
