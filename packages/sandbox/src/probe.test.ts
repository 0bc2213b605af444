import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from './probe.js';
import { decideSandbox } from './sandbox-mode.js';
import { seccompFilter } from './seccomp-filter.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-probe-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function fakeBwrap(name: string, script: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

describe(probeSandbox, () => {
  it('counts only a sandbox that ran: an installed bubblewrap the kernel refuses is unavailable, with its reason', async () => {
    const refused = fakeBwrap(
      'bwrap-refused',
      'case "$1" in --version) echo "bubblewrap 0.8.0";; *) echo "bwrap: setting up uid map: Permission denied" >&2; exit 1;; esac',
    );
    expect(await probeSandbox({ bwrap: refused })).toEqual({
      available: false,
      reason: 'bubblewrap is installed but cannot make a sandbox here: bwrap: setting up uid map: Permission denied',
    });
  });

  // Found by a ninth pass: a sandboxed command filled the disk, and the next Toolwright process's probe, which could
  // not write its files, fell back to no sandbox for good. Whatever a command can cause is a failure of the moment.
  it.for<[string, string]>([
    ['no room', 'echo "bwrap: Creating new namespace failed: No space left on device" >&2; exit 1'],
    ['no process left', 'echo "bwrap: clone: Resource temporarily unavailable" >&2; exit 1'],
    ['no descriptor left', 'echo "bwrap: Failed to open: Too many open files" >&2; exit 1'],
    ['killed', 'kill -KILL $$'],
  ])('takes a sandbox that could not be made just now (%s) as transient, never as none here', async ([, failure]) => {
    const busy = fakeBwrap(`bwrap-${failure.length}`, `case "$1" in --version) echo "bubblewrap 0.8.0";; *) ${failure};; esac`);
    expect(await probeSandbox({ bwrap: busy })).toMatchObject({ available: false, transient: true });
  });

  // Found by a twelfth pass: on a full disk the probe's own command failed inside the sandbox with the shell's
  // "I/O error", which no list of shortages named, and the next process fell back to the judge alone. Only bubblewrap
  // saying the machine refuses a sandbox is lasting.
  it.for<[string, string]>([
    ['the probe command failing inside', 'echo "/bin/sh: 1: echo: echo: I/O error" >&2; exit 2'],
    ['a bubblewrap message no one listed', 'echo "bwrap: Can\'t find source path /tmp/x: No such file or directory" >&2; exit 1'],
    ['no output at all', 'exit 1'],
    ['a sandbox that ran but printed something else', 'echo nope; exit 0'],
  ])('takes what does not say the machine refuses a sandbox (%s) as transient', async ([label, failure]) => {
    const odd = fakeBwrap(`bwrap-odd-${label.length}`, `case "$1" in --version) echo "bubblewrap 0.8.0";; *) ${failure};; esac`);
    expect(await probeSandbox({ bwrap: odd })).toMatchObject({ available: false, transient: true });
  });

  it.for([
    'bwrap: Creating new namespace failed: Operation not permitted',
    'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.',
    'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted',
  ])('takes bubblewrap saying the machine refuses it (%s) as lasting', async (message) => {
    const refusing = fakeBwrap(`bwrap-refusing-${message.length}`, `case "$1" in --version) echo "bubblewrap 0.8.0";; *) echo '${message}' >&2; exit 1;; esac`);
    const support = await probeSandbox({ bwrap: refusing });
    expect(support).toMatchObject({ available: false, reason: expect.stringContaining(message) });
    expect(support).not.toHaveProperty('transient');
  });

  it('takes a probe that cannot write its own files as transient', async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = path.join(dir, 'no-such-folder');
    try {
      expect(await probeSandbox({ fresh: true })).toMatchObject({ available: false, transient: true, reason: expect.stringMatching(/could not be tried/) });
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('names the binary it was told to use when that is not there', async () => {
    const missing = path.join(dir, 'missing');
    expect(await probeSandbox({ bwrap: missing })).toEqual({ available: false, reason: `${missing} is not an executable file` });
  });

  it('tries again without --disable-userns on a bubblewrap that predates it', async () => {
    const old = fakeBwrap(
      'bwrap-old',
      'case "$1" in --version) echo "bubblewrap 0.6.1"; exit 0;; --help) echo "    --bind-fd FD DEST            Bind open directory or path fd on DEST"; exit 0;; esac; for a in "$@"; do [ "$a" = --disable-userns ] && { echo "bwrap: Unknown option --disable-userns" >&2; exit 1; }; done; echo ok; echo "user:[1]"',
    );
    expect(await probeSandbox({ bwrap: old })).toEqual({
      available: true,
      kind: 'bubblewrap',
      path: old,
      version: 'bubblewrap 0.6.1',
      // A user namespace other than this process's: the process limit counts the sandbox's processes alone.
      // It can mount the workspace from a descriptor (its --help lists --bind-fd).
      features: { disableUserns: false, userNamespace: true, bindFd: true, seccomp: seccompFilter() !== undefined },
    });
  });

  it('runs sandboxes without the seccomp filter where the kernel takes none, and says so in its features', async () => {
    const unfiltered = fakeBwrap(
      'bwrap-no-seccomp',
      'case "$1" in --version) echo "bubblewrap 0.8.0"; exit 0;; --help) exit 0;; esac; for a in "$@"; do [ "$a" = --seccomp ] && { echo "bwrap: prctl(PR_SET_SECCOMP): Invalid argument" >&2; exit 1; }; done; echo ok; echo "user:[1]"',
    );
    expect(await probeSandbox({ bwrap: unfiltered })).toMatchObject({ available: true, features: { disableUserns: true, seccomp: false } });
  });

  it.skipIf(seccompFilter() === undefined)('gives bubblewrap the seccomp filter, on a descriptor it can read', async () => {
    const reading = fakeBwrap(
      'bwrap-reads-filter',
      'case "$1" in --version) echo "bubblewrap 0.8.0"; exit 0;; --help) exit 0;; esac; prev=; for a in "$@"; do [ "$prev" = --seccomp ] && { [ "$(head -c 8 <&"$a" | od -An -tx1 | tr -d " \\n")" = "2000000004000000" ] || { echo "bwrap: bad filter" >&2; exit 1; }; }; prev=$a; done; echo ok; echo "user:[1]"',
    );
    expect(await probeSandbox({ bwrap: reading })).toMatchObject({ available: true, features: { seccomp: true } });
  });
});

describe(decideSandbox, () => {
  const available = {
    available: true as const,
    kind: 'bubblewrap' as const,
    path: '/usr/bin/bwrap',
    version: 'bubblewrap 0.8.0',
    features: { disableUserns: true, userNamespace: true },
  };
  const missing = { available: false as const, reason: 'bubblewrap is not installed' };
  it.for([
    ['auto', available, 'sandboxed'],
    ['auto', missing, 'unsandboxed'],
    ['required', available, 'sandboxed'],
    ['required', missing, 'refused'],
    ['off', available, 'unsandboxed'],
    ['off', missing, 'unsandboxed'],
  ] as const)('%s with %o runs %s', ([mode, support, run]) => {
    expect(decideSandbox(mode, support).run).toBe(run);
  });
  it('falls back under auto only where no sandbox can be made here, and refuses where one could not be made just now', () => {
    const full = { available: false as const, reason: 'No space left on device', transient: true as const };
    for (const mode of ['auto', 'required'] as const)
      expect(decideSandbox(mode, full)).toEqual({
        run: 'refused',
        reason: 'the kernel sandbox could not be made just now (No space left on device); the command was not run: try again',
      });
  });
  it('warns when auto falls back to the judge alone, and names the reason when required refuses', () => {
    expect(decideSandbox('auto', missing)).toEqual({
      run: 'unsandboxed',
      warning: 'the kernel sandbox is unavailable (bubblewrap is not installed); shell commands are confined only by the command judge',
    });
    expect(decideSandbox('required', missing)).toEqual({
      run: 'refused',
      reason: 'the kernel sandbox is required but unavailable: bubblewrap is not installed',
    });
  });
});
