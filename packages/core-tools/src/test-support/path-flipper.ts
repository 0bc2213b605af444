import { spawn, type ChildProcess } from 'node:child_process';

/** What a flipped path becomes: a directory holding files (by `/`-separated relative path), a file, or a symbolic link. */
export type FlipState = { dir: Record<string, string> } | { file: string } | { link: string };

/**
 * The flipping loop, run in a separate process so that it races the calls under test for real:
 * it prepares each next state under a temporary name beside the target, removes the target and
 * renames the new state in, forever, in random order. Errors (a call under test holding the
 * directory, a name taken) are ignored: the next round tries again.
 */
const SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const [target, json] = process.argv.slice(1);
const states = JSON.parse(json);
const spare = path.join(path.dirname(target), '.flip-' + path.basename(target));
let round = 0;
for (;;) {
  const state = states[Math.floor(Math.random() * states.length)];
  try {
    fs.rmSync(spare, { recursive: true, force: true });
    if (state.dir) {
      fs.mkdirSync(spare);
      for (const [name, text] of Object.entries(state.dir)) {
        fs.mkdirSync(path.dirname(path.join(spare, name)), { recursive: true });
        fs.writeFileSync(path.join(spare, name), text);
      }
    } else if (state.file !== undefined) fs.writeFileSync(spare, state.file);
    else fs.symlinkSync(state.link, spare);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(spare, target);
  } catch {}
  if (++round === 20) process.stdout.write('ready\\n');
}
`;

/** Starts flipping `target` between `states` in a child process; resolves once it is under way. */
export async function startFlipping(target: string, states: readonly FlipState[]): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SCRIPT, target, JSON.stringify(states)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve());
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
