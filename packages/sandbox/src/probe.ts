import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArguments, type BubblewrapFeatures } from './bwrap-arguments.js';
import { DEFAULT_LIMITS } from './resource-limits.js';
import { sandboxAssets } from './sandbox-assets.js';
import { HELPER_ENV } from './system-programs.js';

/** Whether commands can run in a kernel sandbox here, and with what. */
export type SandboxSupport =
  | { available: true; kind: 'bubblewrap'; path: string; version: string; features: BubblewrapFeatures }
  | {
      available: false;
      reason: string;
      /**
       * The sandbox could not be made just now (no space, no descriptors or memory left, too slow) rather than not
       * here at all: a command may have caused it (found by a ninth pass: a command that filled the disk made the
       * next Toolwright process fall back to no sandbox). Nothing falls back on it; the next command probes again.
       */
      transient?: true;
    };

/** Failures that say nothing of whether a sandbox can be made here, only that it could not be now. */
const TRANSIENT =
  /no space left|ENOSPC|EDQUOT|quota|resource temporarily unavailable|EAGAIN|too many open files|EMFILE|ENFILE|cannot allocate memory|ENOMEM|interrupted system call|EINTR|timed out/i;

/** Where bubblewrap is looked for, in order (a PATH lookup could find a workspace's planted `bwrap`). */
const BWRAP_LOCATIONS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

let probed: { at: number; support: Promise<SandboxSupport> } | undefined;
/** A probe that found no sandbox is retried after this long (bubblewrap may be installed meanwhile). */
const RETRY_UNAVAILABLE_MS = 60_000;

/**
 * Finds bubblewrap and starts one sandbox built exactly as commands will be (every namespace, no
 * capabilities, a workspace bound read-write) running `/bin/true`: bubblewrap may be installed and
 * still fail here (a container's seccomp profile or AppArmor forbidding user namespaces), so only
 * a sandbox that ran counts. Probed once per process (an unavailable sandbox again after a minute);
 * `options.bwrap` (or the environment's `TOOLWRIGHT_BWRAP`) names another binary.
 */
export async function probeSandbox(options: { bwrap?: string; fresh?: boolean } = {}): Promise<SandboxSupport> {
  if (options.bwrap !== undefined || options.fresh) return probe(options.bwrap);
  if (probed && (await probed.support).available === false && Date.now() - probed.at > RETRY_UNAVAILABLE_MS) probed = undefined;
  // An operator may name bubblewrap's location (an install outside the system directories).
  const configured = process.env.TOOLWRIGHT_BWRAP;
  const current = (probed ??= { at: Date.now(), support: probe(configured !== undefined && configured !== '' ? configured : undefined) });
  const support = await current.support;
  // A failure of the moment is not remembered: the next command probes again.
  if (!support.available && support.transient && probed === current) probed = undefined;
  return support;
}

/**
 * Never rejects. Only what says this machine cannot make a sandbox (no Linux, no bubblewrap, the kernel refusing its
 * namespaces) is lasting; whatever goes wrong while trying (no room for the probe's files, a timeout, no process
 * or descriptor left) is `transient`: it may be a command's doing, and must not turn the sandbox off.
 */
async function probe(given: string | undefined): Promise<SandboxSupport> {
  try {
    return await tryProbe(given);
  } catch (error) {
    return { available: false, reason: `the sandbox could not be tried: ${error instanceof Error ? error.message : String(error)}`, transient: true };
  }
}

/**
 * What bubblewrap says when this machine will not let it make a sandbox: the kernel or a container refusing its
 * namespaces, mounts or maps (`bwrap: Creating new namespace failed: Operation not permitted`, `bwrap: No permissions
 * to create new namespace`, `bwrap: setting up uid map: Permission denied`, an option it does not know).
 */
const REFUSED_HERE = /^bwrap: .*(operation not permitted|permission denied|no permissions|not supported|namespace|unknown option|invalid argument)/im;

/**
 * Bubblewrap failed. Lasting only when bubblewrap itself says the machine refuses what a sandbox needs; anything else
 * is a failure of the moment and refuses this command without turning the sandbox off: how it ended (killed, timed
 * out), a shortage it names, and whatever the probe's own command met inside the sandbox (found by a twelfth pass:
 * on a full disk the probe's `echo ok > probe` failed with the shell's "I/O error", which no list of shortages named,
 * and the next Toolwright process fell back to the judge alone).
 */
function failed(reason: string, result: { code: number | null; stderr: string }): SandboxSupport {
  const lasting = result.code !== null && !TRANSIENT.test(result.stderr) && REFUSED_HERE.test(result.stderr);
  return lasting ? { available: false, reason } : { available: false, reason, transient: true };
}

async function tryProbe(given: string | undefined): Promise<SandboxSupport> {
  if (process.platform !== 'linux') return { available: false, reason: `no kernel sandbox is implemented for ${process.platform} (Linux uses bubblewrap)` };
  const bwrap = given ?? BWRAP_LOCATIONS.find((candidate) => isExecutable(candidate));
  if (!bwrap || !isExecutable(bwrap))
    return {
      available: false,
      reason: bwrap ? `${bwrap} is not an executable file` : "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap; it provides 'bwrap')",
    };
  const version = await run(bwrap, ['--version']);
  if (version.code !== 0) {
    // Nothing in the workspace or on the disk decides whether `--version` runs: lasting unless it was cut short.
    const reason = `${bwrap} --version failed: ${version.stderr.trim() || `exit code ${String(version.code)}`}`;
    return version.code === null || TRANSIENT.test(version.stderr) ? { available: false, reason, transient: true } : { available: false, reason };
  }
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-probe-'));
  try {
    const policy = { workspace, readOnly: [], hidden: [], readable: [], network: false, home: '/tmp/home', cwd: workspace, limits: DEFAULT_LIMITS };
    const filter = sandboxAssets(policy.home).seccomp;
    const tries = [true, false].flatMap((disableUserns) => (filter ? [true, false] : [false]).map((seccomp) => ({ disableUserns, seccomp })));
    for (let i = 0; i < tries.length; i++) {
      const { disableUserns, seccomp } = tries[i]!;
      const tried = { disableUserns, userNamespace: true };
      const script = 'echo ok > probe && cat probe && readlink /proc/self/ns/user';
      const filterFd = seccomp && filter ? fs.openSync(filter, 'r') : undefined;
      const result = await run(
        bwrap,
        [...bwrapArguments(policy, sandboxAssets(policy.home), tried, undefined, filterFd === undefined ? undefined : 3), '--', '/bin/sh', '-c', script],
        filterFd,
      );
      const [ok, userNamespace] = result.stdout.trim().split('\n');
      if (result.code === 0 && ok === 'ok') {
        // Without a user namespace of its own (a setuid bubblewrap), the process limit counts the user's processes outside too.
        const features = {
          disableUserns,
          userNamespace: userNamespace !== undefined && userNamespace !== hostUserNamespace(),
          bindFd: (await run(bwrap, ['--help'])).stdout.includes('--bind-fd'),
          seccomp,
        };
        return { available: true, kind: 'bubblewrap', path: bwrap, version: version.stdout.trim(), features };
      }
      // A kernel without seccomp filters: the sandbox without the filter (`toolwright doctor` says so).
      if (seccomp && /seccomp|PR_SET_SECCOMP/i.test(result.stderr)) continue;
      // Older bubblewrap has no --disable-userns: try without it.
      if (disableUserns && /disable-userns|unknown option/i.test(result.stderr)) {
        while (tries[i + 1]?.disableUserns) i++;
        continue;
      }
      return failed(`bubblewrap is installed but cannot make a sandbox here: ${firstLine(result.stderr) || `exit code ${String(result.code)}`}`, result);
    }
    return { available: false, reason: 'bubblewrap cannot make a sandbox here' };
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/** Runs `file`, with `descriptor` (closed here once the program has it) as its descriptor 3. */
function run(file: string, args: string[], descriptor?: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe', ...(descriptor === undefined ? [] : [descriptor])], env: HELPER_ENV });
    } finally {
      if (descriptor !== undefined) fs.closeSync(descriptor);
    }
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      stderr += '\n(timed out after 10 s)';
      child.kill('SIGKILL');
    }, 10_000);
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

function hostUserNamespace(): string | undefined {
  try {
    return fs.readlinkSync('/proc/self/ns/user');
  } catch {
    return undefined;
  }
}
