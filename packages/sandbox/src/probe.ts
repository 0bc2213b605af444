import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArguments, type BubblewrapFeatures } from './bwrap-arguments.js';
import { DEFAULT_LIMITS } from './resource-limits.js';
import { sandboxAssets } from './sandbox-assets.js';

/** Whether commands can run in a kernel sandbox here, and with what. */
export type SandboxSupport =
  { available: true; kind: 'bubblewrap'; path: string; version: string; features: BubblewrapFeatures } | { available: false; reason: string };

/** Where bubblewrap is looked for, in order (a PATH lookup could find a workspace's planted `bwrap`). */
const BWRAP_LOCATIONS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

let probed: Promise<SandboxSupport> | undefined;

/**
 * Finds bubblewrap and starts one sandbox built exactly as commands will be (every namespace, no
 * capabilities, a workspace bound read-write) running `/bin/true`: bubblewrap may be installed and
 * still fail here (a container's seccomp profile or AppArmor forbidding user namespaces), so only
 * a sandbox that ran counts. Probed once per process; `options.bwrap` (or the environment's
 * `TOOLWRIGHT_BWRAP`) names another binary.
 */
export function probeSandbox(options: { bwrap?: string; fresh?: boolean } = {}): Promise<SandboxSupport> {
  if (options.bwrap !== undefined || options.fresh) return probe(options.bwrap);
  // An operator may name bubblewrap's location (an install outside the system directories).
  const configured = process.env.TOOLWRIGHT_BWRAP;
  return (probed ??= probe(configured !== undefined && configured !== '' ? configured : undefined));
}

async function probe(given: string | undefined): Promise<SandboxSupport> {
  if (process.platform !== 'linux') return { available: false, reason: `no kernel sandbox is implemented for ${process.platform} (Linux uses bubblewrap)` };
  const bwrap = given ?? BWRAP_LOCATIONS.find((candidate) => isExecutable(candidate));
  if (!bwrap || !isExecutable(bwrap))
    return {
      available: false,
      reason: bwrap ? `${bwrap} is not an executable file` : "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap; it provides 'bwrap')",
    };
  const version = await run(bwrap, ['--version']);
  if (version.code !== 0) return { available: false, reason: `${bwrap} --version failed: ${version.stderr.trim() || `exit code ${String(version.code)}`}` };
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-probe-'));
  try {
    for (const features of [{ disableUserns: true }, { disableUserns: false }]) {
      const policy = { workspace, readOnly: [], hidden: [], readable: [], network: false, home: '/tmp/home', cwd: workspace, limits: DEFAULT_LIMITS };
      const result = await run(bwrap, [...bwrapArguments(policy, sandboxAssets(policy.home), features), '--', '/bin/sh', '-c', 'echo ok > probe && cat probe']);
      if (result.code === 0 && result.stdout.trim() === 'ok')
        return { available: true, kind: 'bubblewrap', path: bwrap, version: version.stdout.trim(), features };
      // Older bubblewrap has no --disable-userns: try once without it.
      if (features.disableUserns && /disable-userns|unknown option/i.test(result.stderr)) continue;
      return {
        available: false,
        reason: `bubblewrap is installed but cannot make a sandbox here: ${firstLine(result.stderr) || `exit code ${String(result.code)}`}`,
      };
    }
    return { available: false, reason: 'bubblewrap cannot make a sandbox here' };
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
