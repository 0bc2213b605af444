import fs from 'node:fs';
import path from 'node:path';
import { SourceError } from '../source-error.js';

/**
 * Checks, before anything starts, that the working directory is a folder and the program is an executable file:
 * `argv[0]` as an absolute path (the source resolved one spelled with a slash), else the first match on `PATH`.
 * Throws `not_found` naming what is missing; returns the program's absolute path.
 */
export function findProgram(program: string, cwd: string, pathVariable: string): string {
  if (!isDirectory(cwd)) throw new SourceError('not_found', `the working directory '${cwd}' of the subprocess tool does not exist or is not a folder`);
  if (path.isAbsolute(program)) {
    const problem = executableProblem(program);
    if (problem) throw new SourceError('not_found', `the program '${program}' ${problem}`);
    return program;
  }
  const folders = pathVariable.split(':').filter((folder) => path.isAbsolute(folder));
  for (const folder of folders) {
    const candidate = path.join(folder, program);
    if (executableProblem(candidate) === undefined) return candidate;
  }
  throw new SourceError('not_found', `no program named '${program}' was found on the tool's PATH (${folders.join(':')}): install it, or name it by its path`);
}

/** Why `file` cannot be run, or undefined. */
function executableProblem(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'does not exist';
  }
  if (!stat.isFile()) return 'is not a file';
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return "is not executable: make it so (chmod +x) with a '#!' line, or run it through its interpreter (['python3', './tool.py'])";
  }
  return undefined;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
