import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { namespaceEnded, namespaceInit } from './namespace-end.js';
import { stopwatch } from '../../../tools/vitest/ready-wait.mts';

const onProc = fs.existsSync('/proc/self/stat');

describe.skipIf(!onProc)('waiting for a sandbox namespace to end', () => {
  /** A launcher with one child, as bubblewrap has its namespace's first process. */
  async function launcher(seconds: number) {
    const child = spawn('sh', ['-c', `sleep ${seconds} & wait`], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let init: ReturnType<typeof namespaceInit>;
    for (let i = 0; i < 200 && !(init = namespaceInit(child.pid!)); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    return { child, exited, init: init! };
  }

  it("finds the launcher's one child, and waits until it is gone", async () => {
    const { child, init } = await launcher(0.3);
    expect(init.pid).toBeGreaterThan(0);
    const started = performance.now();
    expect(await namespaceEnded(init)).toBe(true);
    expect(performance.now() - started).toBeGreaterThan(100);
    expect(fs.existsSync(`/proc/${init.pid}`) && fs.readFileSync(`/proc/${init.pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z').toBe(false);
    child.kill();
  });

  it('kills it when it outlasts the wait', async () => {
    const { exited, init } = await launcher(30);
    const elapsed = stopwatch();
    expect(await namespaceEnded(init, 100)).toBe(true); // killed, and ended well within the wait after the kill
    expect(elapsed()).toBeLessThan(5000);
    await exited; // its launcher saw it end
  });

  it('finds nothing for a launcher that has more than one child or none', () => {
    expect(namespaceInit(process.pid)).toBeUndefined(); // this process: the test runner's workers and more, or none
  });
});
