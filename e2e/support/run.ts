import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '../..');
export const BIN = path.join(REPO, 'node_modules', '.bin');

export interface RunResult {
  status: number | null;
  output: string;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and returns its exit status and combined output. */
export function run(command: string, args: readonly string[], cwd: string, input?: string): RunResult {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    ...(input !== undefined ? { input } : {}),
  });
  const stdout = result.stdout ?? '';
  const stderr = result.stderr ?? '';
  return { status: result.status, output: `${stdout}${stderr}`, stdout, stderr };
}

export function tspc(args: readonly string[], cwd: string): RunResult {
  return run(process.execPath, [path.join(REPO, 'node_modules', 'ts-patch', 'bin', 'tspc.js'), ...args], cwd);
}

export function toolwright(args: readonly string[], cwd: string, input?: string): RunResult {
  return run(process.execPath, [path.join(REPO, 'packages', 'cli', 'dist', 'bin.js'), ...args], cwd, input);
}
