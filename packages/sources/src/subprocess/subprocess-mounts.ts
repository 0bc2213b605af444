import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_PROTECTED_PATHS } from '@toolwright/core-tools';
import { holdPlaceholders, identityOf, isWithin, readableProblem, type PlaceholderRequest, type ResourceLimits, type SandboxPolicy } from '@toolwright/sandbox';
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
  /** Whether the program may write the workspace (a side-effecting or privileged tool), or only read it. */
  writesWorkspace: boolean;
  network: boolean;
  /** The program's PATH: its folders outside the system's are shown read-only, as the shell shows them. */
  pathVariable: string;
  home: string;
  limits: ResourceLimits;
}

/** Protected names at the workspace's root that stand for folders (the rest are files). */
const FOLDER_NAMES = new Set(['.git', '.toolwright']);

/**
 * The sandbox of one call: the system's folders read-only (the sandbox package's own view), the tool's folder and
 * the command's files (the program, and the arguments that name files: the script of `['python3', './tool.py']`)
 * read-only, the workspace writable for a tool that writes (its protected paths — `.git`, `.env`, ... — read-only, a
 * missing one held by an empty placeholder) or read-only as a whole, a private `/tmp`, `/dev` and `/proc` as the
 * sandbox makes them, nothing else of the host. Without a workspace, the read-only one is the tool's folder (or the
 * project that holds it and the command's files, see `readerRoot`). Throws `sandbox_unavailable` where a folder the
 * command needs cannot be shown (`readableProblem`: in a home directory, or holding the workspace). `release` lets go
 * of the placeholders once the program has ended.
 */
export function subprocessPolicy(request: MountRequest): { policy: SandboxPolicy; release: () => Promise<void> } {
  const toolDir = fs.realpathSync(request.toolDir);
  const files = commandFiles(request.program, request.args, toolDir);
  const readOnly: string[] = [];
  const shown: string[] = [];
  let workspace: string;
  let reader: boolean;
  let release = async () => {};
  if (request.workspace !== undefined) {
    workspace = fs.realpathSync(request.workspace);
    reader = !request.writesWorkspace;
    if (!isWithin(workspace, toolDir)) shown.push(toolDir);
    else if (!reader && toolDir !== workspace) readOnly.push(toolDir);
    for (const file of files) {
      if (!isWithin(workspace, file)) {
        if (!isWithin(toolDir, file)) shown.push(path.dirname(file));
      } else if (!reader) readOnly.push(file);
    }
    if (!reader) {
      const held = protectedPaths(workspace);
      readOnly.push(...held.readOnly);
      release = held.release;
    }
  } else {
    workspace = readerRoot(toolDir, files);
    reader = true;
    for (const file of files) if (!isWithin(workspace, file)) shown.push(path.dirname(file));
  }
  try {
    for (const dir of shown) {
      const problem = readableProblem(dir, workspace);
      if (problem)
        throw new SourceError(
          'sandbox_unavailable',
          `the sandbox cannot show the tool's folder '${dir}': ${problem}. Keep the tool's files in the workspace or in a folder outside home directories, or run the tool with sandbox: 'off'`,
        );
    }
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
      // A read-only workspace in a command's sandbox (`/dev/null`, `/proc/self` as programs expect them).
      workspaceReadOnly: reader,
    };
    return { policy, release };
  } catch (error) {
    void release();
    throw error;
  }
}

/**
 * The workspace's protected paths (`.git`, `.toolwright`, `.env` and Toolwright's configuration, as the shell keeps
 * them): read-only where they are, held by a placeholder where they are missing, so that the program can neither
 * change nor make them (a `.git/hooks` script would run at the user's next commit).
 */
function protectedPaths(workspace: string): { readOnly: string[]; release: () => Promise<void> } {
  const present: string[] = [];
  const missing: PlaceholderRequest[] = [];
  for (const name of DEFAULT_PROTECTED_PATHS) {
    const entry = path.join(workspace, name);
    if (exists(entry)) present.push(entry);
    else missing.push({ path: entry, kind: FOLDER_NAMES.has(name) ? 'directory' : 'file' });
  }
  const held = holdPlaceholders(missing, present);
  return { readOnly: [...present, ...held.placeholders, ...held.existing], release: held.release };
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
