import fs from 'node:fs';
import path from 'node:path';
import { SandboxView, WorkspacePolicy } from '@toolwright/core-tools';
import { identityOf, isWithin, readableProblem, type ResourceLimits, type SandboxPolicy } from '@toolwright/sandbox';
import type { WorkspaceRules } from '@toolwright/tool';
import { SourceError } from '../source-error.js';
import { commandFiles, isProvided, readerRoot } from './command-files.js';

/** What a subprocess tool's sandbox is made from. Paths are absolute. */
export interface MountRequest {
  /** The tool's folder, where the program starts: read-only. */
  toolDir: string;
  /** The program's absolute path (read-only with its folder, unless it is one of the system's). */
  program: string;
  /** The program's arguments: those that name files are the command's too (a script). */
  args: readonly string[];
  /** The call's workspace, if the caller set one. */
  workspace: string | undefined;
  /** What the workspace keeps from tools (protected and hidden paths), as the caller set it. */
  rules?: WorkspaceRules | undefined;
  /** Whether the program may write the workspace (a side-effecting or privileged tool), or only read it. */
  writesWorkspace: boolean;
  network: boolean;
  /** The program's PATH: its folders outside the system's are shown read-only, as the shell shows them. */
  pathVariable: string;
  home: string;
  limits: ResourceLimits;
}

/**
 * The sandbox of one call. With a workspace, it is the shell's own view of it (`SandboxView` of the core tools, built
 * from the workspace's rules): the protected paths read-only wherever they are (a missing one at the root held by an
 * empty placeholder), the paths git's configuration there reads or runs (hooks) read-only, the paths deny rules name
 * hidden; the workspace writable for a tool that writes and read-only as a whole for a read-only tool. Besides: the
 * system's folders, the tool's folder and the command's files (the program, and the arguments that name files: the
 * script of `['python3', './tool.py']`) read-only, a private `/tmp`, `/dev` and `/proc` as the sandbox makes them,
 * nothing else of the host. Without a workspace, the read-only one is the tool's folder (or the project that holds it
 * and the command's files, see `readerRoot`). Throws `sandbox_unavailable` where a folder the command needs cannot be
 * shown (`readableProblem`: in a home directory, or holding the workspace). `release` lets go of the placeholders once
 * the program has ended.
 */
export function subprocessPolicy(request: MountRequest): { policy: SandboxPolicy; release: () => Promise<void> } {
  const toolDir = fs.realpathSync(request.toolDir);
  const files = commandFiles(request.program, request.args, toolDir);
  const readOnly: string[] = [];
  const shown: string[] = [];
  if (request.workspace === undefined) {
    const workspace = readerRoot(toolDir, files);
    for (const file of files) if (!isWithin(workspace, file)) shown.push(path.dirname(file));
    checkShown(shown, workspace);
    const policy: SandboxPolicy = {
      workspace,
      workspaceIdentity: identityOf(workspace),
      readOnly,
      hidden: [],
      readable: outermost([...shown, ...pathFolders(request.pathVariable, workspace)]),
      network: request.network,
      home: request.home,
      cwd: toolDir,
      limits: request.limits,
      workspaceReadOnly: true,
    };
    return { policy, release: async () => {} };
  }
  const workspace = fs.realpathSync(request.workspace);
  const writes = request.writesWorkspace;
  if (!isWithin(workspace, toolDir)) shown.push(toolDir);
  else if (writes && toolDir !== workspace) readOnly.push(toolDir);
  for (const file of files) {
    if (!isWithin(workspace, file)) {
      if (!isWithin(toolDir, file)) shown.push(path.dirname(file));
    } else if (writes) readOnly.push(file);
  }
  checkShown(shown, workspace);
  const rules = request.rules;
  const view = new SandboxView(
    new WorkspacePolicy({
      root: workspace,
      ...(rules?.protectedPaths ? { protectedPaths: rules.protectedPaths } : {}),
      ...(rules?.deniedPaths ? { deniedPaths: rules.deniedPaths } : {}),
    }),
    {},
  );
  const plan = view.plan(toolDir, { PATH: request.pathVariable, HOME: request.home }, request.network);
  const policy: SandboxPolicy = {
    ...plan.policy,
    // A read-only tool's workspace is read-only as a whole: nothing in it needs keeping read-only on its own.
    readOnly: writes ? [...new Set([...plan.policy.readOnly, ...readOnly])] : [],
    readable: outermost([...plan.policy.readable, ...shown, ...pathFolders(request.pathVariable, workspace)]),
    cwd: toolDir,
    limits: request.limits,
    workspaceReadOnly: !writes,
  };
  return { policy, release: () => plan.release() };
}

/** Refuses a folder the sandbox cannot show (in a home directory, or holding the workspace), saying what to do. */
function checkShown(shown: readonly string[], workspace: string): void {
  for (const dir of shown) {
    const problem = readableProblem(dir, workspace);
    if (problem)
      throw new SourceError(
        'sandbox_unavailable',
        `the sandbox cannot show the tool's folder '${dir}': ${problem}. Keep the tool's files in the workspace or in a folder outside home directories, or run the tool with sandbox: 'off'`,
      );
  }
}

/** PATH folders outside the system's that the sandbox may show (a home's `~/.local/bin` is left out, as the shell leaves it). */
function pathFolders(pathVariable: string, workspace: string): string[] {
  const found: string[] = [];
  for (const entry of pathVariable.split(':')) {
    if (!path.isAbsolute(entry) || !exists(entry)) continue;
    const dir = fs.realpathSync(entry);
    if (!isProvided(dir) && readableProblem(dir, workspace) === undefined) found.push(dir);
  }
  return found;
}

/** Without duplicates, and without folders inside another of the list. */
function outermost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs)];
  return unique.filter((dir) => !unique.some((other) => other !== dir && isWithin(other, dir)));
}

function exists(entry: string): boolean {
  try {
    fs.lstatSync(entry);
    return true;
  } catch {
    return false;
  }
}
