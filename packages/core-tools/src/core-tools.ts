import type { RegisteredTool, ToolRegistry } from '@toolwright/registry';
import type { CoreToolsEnvironment } from './environment.js';
import { FileReadTool } from './tools/file-read.js';
import { FileListTool } from './tools/file-list.js';
import { GlobTool } from './tools/glob.js';
import { FileWriteTool } from './tools/file-write.js';
import { FileEditTool } from './tools/file-edit.js';
import { FileDeleteTool } from './tools/file-delete.js';
import { ShellTool } from './tools/shell-exec.js';
import { WebFetchTool } from './tools/web-fetch.js';
import { WebSearchTool } from './tools/web-search.js';
import { FileSearchTool } from './tools/file-search.js';
import { VaultTool } from './tools/vault-copyto.js';
import { WorkspaceError } from './workspace/workspace-error.js';
import type { ResolvedPath } from './workspace/workspace-policy.js';
import { MAX_TREE_ENTRIES, protectedPathsUnder, treeAt } from './workspace/tree-scan.js';
import { spellingOf } from './path-resolvers.js';
import { renderName } from './model-text/render-name.js';

/** The core toolkit classes, in the order their tools are listed. */
export const CORE_TOOLKITS = [
  FileReadTool,
  FileListTool,
  FileSearchTool,
  GlobTool,
  FileWriteTool,
  FileEditTool,
  FileDeleteTool,
  ShellTool,
  WebFetchTool,
  WebSearchTool,
  VaultTool,
] as const;

/** The toolkits bound to one environment; tools of one session share its read hashes. */
export function createCoreTools(env: CoreToolsEnvironment): object[] {
  const shared: CoreToolsEnvironment = { ...env, readHashes: env.readHashes ?? new Map() };
  return CORE_TOOLKITS.map((Toolkit) => new Toolkit(shared));
}

/** Registers every core tool bound to `env`; returns what was added. */
export function registerCoreTools(registry: ToolRegistry, env: CoreToolsEnvironment): RegisteredTool[] {
  return createCoreTools(env).flatMap((toolkit) => registry.registerToolkit(toolkit));
}

/**
 * What a risk hook answers (the shape of the executor's `RiskReport`; core tools do not depend on the
 * executor): the protected paths a call touches, or the escalation it asks for.
 */
export type CoreToolRisk = 'safe' | { level: 'risky'; reason: string; protectedPaths?: string[]; escalation?: string };

/**
 * Per-call risk for the executor's `riskLevel` option: a write, edit or delete of a protected path
 * (`.git/`, `.toolwright/`, `.env`, Toolwright's own config and policy files, at any depth, by
 * default) is risky and names the path — it asks for approval even when the tool's tier would run
 * unasked, and blanket approval (`--yes`, an approve-everything handler, a remembered "always") does
 * not cover it. A recursive delete also names every protected path inside the tree it removes
 * (`sub` holding `sub/.git`); a tree too large to walk is reported whole (`sub/**`); `vault_copyto`
 * names the protected path it would write. A path the workspace refuses is left to the tool, which
 * reports it. A `shell_exec` call with `escalate` (anything but absent or `false`) is an escalation: it
 * asks to run outside the kernel sandbox, which only a person confirming it can approve — no allow
 * rule, remembered approval or `--yes`.
 */
export function coreToolsRiskLevels(env: CoreToolsEnvironment): Record<string, (args: Record<string, unknown>) => CoreToolRisk> {
  const protectedPath = (args: Record<string, unknown>): CoreToolRisk => {
    if (typeof args.path !== 'string') return 'safe';
    const paths = new Set<string>();
    let reason: string | undefined;
    // The path itself (a delete acts on a link) and where it leads (a write follows one).
    for (const resolve of [() => env.workspace.resolveLink(args.path as string), () => env.workspace.resolve(args.path as string)]) {
      const resolved = resolvedOrUndefined(resolve);
      if (resolved?.protected) paths.add(spellingOf(resolved));
    }
    if (args.recursive === true) {
      const tree = treeAt(env.workspace, args.path);
      if (tree && !tree.protected) {
        const found = protectedPathsUnder(env.workspace, tree);
        for (const relative of found.paths) paths.add(spellingOf({ ...tree, relative }));
        if (!found.complete) {
          const whole = `${spellingOf(tree)}/**`;
          paths.add(whole);
          reason = `it deletes ${renderName(spellingOf(tree))}, a tree too large to check for protected paths (more than ${MAX_TREE_ENTRIES} entries, or unreadable parts)`;
        }
      }
    }
    if (paths.size === 0) return 'safe';
    return {
      level: 'risky',
      reason: reason ?? `it changes the protected path${paths.size > 1 ? 's' : ''} ${[...paths].map(renderName).join(' and ')}`,
      protectedPaths: [...paths],
    };
  };
  // vault_copyto writes `shared:/<name>` or `tmp/<name>`: a vault entry named `toolwright.config.json` is one.
  const vaultTarget = (args: Record<string, unknown>): CoreToolRisk => {
    if (typeof args.name !== 'string') return 'safe';
    return protectedPath({ path: args.destination === 'tmp' ? `tmp/${args.name}` : `shared:/${args.name}` });
  };
  return { file_write: protectedPath, file_edit: protectedPath, file_delete: protectedPath, vault_copyto: vaultTarget, shell_exec: shellEscalation };
}

/**
 * `shell_exec` asking to run outside the sandbox. Any `escalate` but absent or `false` counts, so a value
 * the tool might take as true is never waved through. The command is quoted as JSON: a newline or a
 * control character in it cannot pass for more of the question.
 * @example shellEscalation({ command: 'npm install', escalate: true }).escalation
 *   // 'it runs "npm install" outside the kernel sandbox, where files outside the workspace and the network are within its reach'
 */
function shellEscalation(args: Record<string, unknown>): CoreToolRisk {
  if (args.escalate === undefined || args.escalate === false) return 'safe';
  const command = typeof args.command === 'string' ? JSON.stringify(args.command) : 'its command';
  const escalation = `it runs ${command} outside the kernel sandbox, where files outside the workspace and the network are within its reach`;
  return { level: 'risky', reason: escalation, escalation };
}

function resolvedOrUndefined(resolve: () => ResolvedPath): ResolvedPath | undefined {
  try {
    return resolve();
  } catch (error) {
    if (error instanceof WorkspaceError) return undefined;
    throw error;
  }
}
