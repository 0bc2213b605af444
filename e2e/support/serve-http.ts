import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './run.js';

/** The CLI as built. */
export const CLI = path.join(REPO, 'packages', 'cli', 'dist', 'bin.js');

/**
 * The `toolwright serve --mcp http` processes and the folders one e2e file made, each ended or removed by `cleanUp`
 * (call it from `afterAll`).
 */
export class ServeHarness {
  readonly processes: ChildProcess[] = [];
  private readonly folders: string[] = [];

  /** A fresh folder (its real path), holding `files` (name → text). */
  folder(prefix: string, files: Record<string, string> = {}): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    this.folders.push(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  }

  /** Starts `toolwright serve --mcp http --port 0 <args>` in `cwd` and waits for the URL it listens at. */
  async startHttp(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; port: number; child: ChildProcess }> {
    const child = spawn(process.execPath, [CLI, 'serve', '--mcp', 'http', '--port', '0', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.processes.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /at (http:\/\/\S+)/.exec(err);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
    });
    return { url, port: Number(new URL(url).port), child };
  }

  cleanUp(): void {
    for (const child of this.processes) child.kill('SIGKILL');
    for (const dir of this.folders) fs.rmSync(dir, { recursive: true, force: true });
  }
}
