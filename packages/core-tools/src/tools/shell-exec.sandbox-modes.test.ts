// What a command may make where it can write, with the judge switched off: never a file that runs as its owner or
// group (set-user-ID, set-group-ID), and nothing other local users may write (the group may be shared). Found by a twelfth pass: a command (root
// in the sandbox, and owner of what it makes) ran `cp /bin/bash x; chmod 4755 x` in the workspace, and another local
// user ran `x` as root on the host; after `chmod 0777 .` any local user replaced the workspace's config. The mounts
// decide where a command writes; the seccomp filter (`@toolwright/sandbox`'s `seccomp-filter.ts`) decides what.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '@toolwright/sandbox';
import { runWithToolContext } from '@toolwright/tool';
import { toolContext } from '../test-support/tool-context.js';
import { ShellTool, type ShellResult } from './shell-exec.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import type { ShellConfig } from '../shell/shell-config.js';

const support = await probeSandbox();
if (!support.available && (process.env.CI || process.env.TOOLWRIGHT_SANDBOX_TESTS === 'required'))
  throw new Error(`CI must run the sandbox suite, but: ${support.reason}`);
const filtered = support.available && support.features.seccomp === true;

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-modes-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true, maxRetries: 10 }));
let made = 0;

function setUp(backend: 'host' | 'session') {
  const root = path.join(base, `ws${++made}`);
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'ok.txt'), 'inside\n');
  const tool = new ShellTool({ workspace: new WorkspacePolicy({ root }), shell: { backend, unjudged: true, timeoutMs: 20_000 } as ShellConfig });
  const run = async (command: string): Promise<string> => {
    const context = toolContext({ toolName: 'shell_exec', sessionId: 's' });
    try {
      const result = (await runWithToolContext(context, () => tool.shellExec(command, 20))) as ShellResult;
      return `${result.stdout}\n${result.stderr}`;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return { root, tool, run };
}

/** Every entry under `root` (itself included) whose mode has a set-ID bit or the group's or others' write bit, links aside. */
function looseModes(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o6022) found.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o7777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}

/** Each way of asking for a set-ID bit, a world-writable mode or another user's access, by program and by system call. */
const ATTEMPTS = [
  'cp /bin/bash x && chmod 4755 x',
  'cp /bin/bash x2 && chmod u+s,g+s x2',
  'cp /bin/bash x3 && chmod 2755 x3',
  'mkdir -m 6777 d',
  'mkdir d2 && chmod g+s d2',
  'install -m 4755 /bin/true y',
  'for f in /usr/bin/*; do [ -u "$f" ] && cp -p "$f" p && break; done',
  'cp /bin/bash t && tar --mode=4755 -cf /tmp/t.tar t && mkdir u && tar -xpf /tmp/t.tar -C u',
  `python3 -c "import os; os.close(os.open('z', os.O_CREAT | os.O_WRONLY, 0o4755))"`,
  `python3 -c "import os; os.mkdir('z2', 0o2777)"`,
  'chmod 0777 .',
  'chmod o+w ok.txt',
  'chmod 0775 .',
  'chmod g+w ok.txt',
  'umask 002; mkdir g; touch g/f',
  'umask 0; mkdir w; touch w/f; mkdir -p deep/er',
  `python3 -c "import os; os.umask(0); os.mkdir('w2', 0o777)"`,
  `node -e "process.umask(0); require('fs').mkdirSync('w3', 0o777); require('fs').writeFileSync('w3/f', '', { mode: 0o666 })"`,
  `python3 -c "import os; os.setxattr('ok.txt', 'system.posix_acl_access', bytes.fromhex('02000000010006000000000002000700fe00000004000400000000001000070000000000200004000000000000'))"`,
  `python3 -c "import os; os.setxattr('ok.txt', 'user.note', b'1')"`,
];

describe.skipIf(!filtered)('what a sandboxed command may make where it can write (judge off)', () => {
  it.for(['host', 'session'] as const)('no set-ID file, and nothing other users may write (%s backend)', async (backend) => {
    const { root, tool, run } = setUp(backend);
    try {
      for (const command of ATTEMPTS) {
        await run(command);
        expect(looseModes(root), command).toEqual([]);
      }
      expect(await run(`python3 -c "import os; print(os.listxattr('ok.txt'))"`)).toContain('[]');
    } finally {
      tool.dispose();
    }
  });

  // Found by a red-team pass: a lease on a workspace file (the command owns it; a read-only protected one too) made
  // every open of it on the host wait out the kernel's lease-break time, 45 s, for as long as the command lived.
  it.for(['host', 'session'] as const)('takes no lease on any workspace file, so no open on the host waits (%s backend)', async (backend) => {
    const { root, tool, run } = setUp(backend);
    fs.writeFileSync(path.join(root, '.env'), 'TOKEN=1\n');
    const script = [
      'import fcntl, os',
      "for name, flags, kind in [('ok.txt', os.O_RDONLY, 0), ('ok.txt', os.O_RDWR, 1), ('.env', os.O_RDONLY, 0), ('new.txt', os.O_RDWR | os.O_CREAT, 1)]:",
      '  fd = os.open(name, flags, 0o644)',
      '  try:',
      '    fcntl.fcntl(fd, 1024, kind)',
      "    print('leased', name, kind)",
      '  except OSError as error:',
      "    print('refused', name, kind, error.errno)",
      "  print('flags', fcntl.fcntl(fd, fcntl.F_GETFL) & 3 == flags & 3)",
      '  fcntl.lockf(fd, fcntl.LOCK_SH if kind == 0 else fcntl.LOCK_EX)',
      '  os.close(fd)',
      "print('done')",
    ].join('\n');
    fs.writeFileSync(path.join(root, 'lease.py'), script);
    try {
      const output = await run('python3 lease.py');
      expect(output).toContain('done');
      expect(output).not.toContain('leased');
      expect(output.match(/^refused .* 22$/gm)).toHaveLength(4);
      // Other fcntl commands (flags, record locks) still work.
      expect(output.match(/^flags True$/gm)).toHaveLength(4);
    } finally {
      tool.dispose();
    }
  });

  // Found by a red-team pass: kernel objects a network, mount or IPC namespace does not hold. The keyrings are the
  // user's for the whole machine (a key written into the host's session keyring outlived the call; `request_key`'s
  // callout started /sbin/request-key on the host, as root); POSIX queues, fanotify groups and queued signals count
  // against the user's limits for the whole machine, AIO events against the machine's; a vsock listener was reachable
  // from the hypervisor with no network. Every socket family is tried.
  it.for(['host', 'session'] as const)(
    'reaches no keyring, message queue, fanotify or AIO context, no socket family beyond local, IP and netlink, and queues few signals (%s backend)',
    async (backend) => {
      const { root, tool, run } = setUp(backend);
      const script = [
        'import ctypes, errno, os, platform, signal, socket',
        'libc = ctypes.CDLL(None, use_errno=True)',
        "ADD_KEY, REQUEST_KEY, KEYCTL, FANOTIFY_INIT, IO_SETUP = {'x86_64': (248, 249, 250, 300, 206), 'aarch64': (217, 218, 219, 262, 0)}[platform.machine()]",
        'def answer(result):',
        "  return 'ok' if result >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))",
        'SESSION = ctypes.c_long(-3)',
        "print('add_key', answer(libc.syscall(ADD_KEY, b'user', b'tw-planted', b'x', ctypes.c_size_t(1), SESSION)))",
        "print('request_key', answer(libc.syscall(REQUEST_KEY, b'user', b'tw-probe', b'callout', SESSION)))",
        "print('keyctl', answer(libc.syscall(KEYCTL, ctypes.c_long(0), SESSION, ctypes.c_long(0))))",
        "print('mq_open', answer(libc.mq_open(b'/tw-queue', os.O_CREAT | os.O_RDWR, 0o600, None)))",
        "print('fanotify_init', answer(libc.syscall(FANOTIFY_INIT, ctypes.c_uint(0x200), ctypes.c_uint(0))))",
        'context = ctypes.c_ulong(0)',
        "print('io_setup', answer(libc.syscall(IO_SETUP, ctypes.c_uint(1), ctypes.byref(context))))",
        // Real-time signals queued to itself while blocked (sigqueue fails once the count is full): each counts against the user.
        'signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])',
        'queued = 0',
        'while queued < 200000 and libc.sigqueue(os.getpid(), int(signal.SIGRTMIN), ctypes.c_void_p(0)) == 0:',
        '  queued += 1',
        "print('signals', queued, answer(-1))",
        'for family in range(48):',
        "  for call, make in (('socket', lambda: socket.socket(family, socket.SOCK_RAW if family in (16, 17) else socket.SOCK_STREAM)), ('socketpair', lambda: socket.socketpair(family))):",
        '    try:',
        '      for each in make() if call == "socketpair" else [make()]: each.close()',
        "      print(call, family, 'ok')",
        '    except OSError as error:',
        '      print(call, family, errno.errorcode.get(error.errno, str(error.errno)))',
        "print('done')",
      ].join('\n');
      fs.writeFileSync(path.join(root, 'kernel.py'), script);
      try {
        const output = await run('python3 kernel.py');
        expect(output).toContain('done');
        for (const call of ['add_key', 'request_key', 'keyctl', 'mq_open', 'fanotify_init', 'io_setup'])
          expect(output).toMatch(new RegExp(`^${call} ENOSYS$`, 'm'));
        // At most the sandbox's own limit of pending signals, not the user's for the whole machine.
        expect(Number(/^signals (\d+) EAGAIN$/m.exec(output)?.[1])).toBeLessThanOrEqual(1024);
        const answers = new Map([...output.matchAll(/^(socket|socketpair) (\d+) (\S+)$/gm)].map(([, call, family, answer]) => [`${call} ${family}`, answer]));
        expect(answers.size).toBe(96);
        // Local, IP and netlink sockets work; a local pair too.
        for (const opened of ['socket 1', 'socket 2', 'socket 10', 'socket 16', 'socketpair 1']) expect(answers.get(opened), opened).toBe('ok');
        // Every other family, as where it is not built in: packet and PF_KEY too, which the kernel would refuse with EPERM.
        const other = [...answers].filter(([key]) => !/^socket (1|2|10|16)$|^socketpair (1|2|10|16)$/.test(key));
        expect(other.filter(([, answer]) => answer !== 'EAFNOSUPPORT')).toEqual([]);
      } finally {
        tool.dispose();
      }
    },
  );

  // A mount covers a name, not the file: a hard link made while a file was plain workspace content stayed writable and
  // readable by its other name once the file was protected (a git hook folder `core.hooksPath` names) or hidden (a deny
  // rule), so the filter lets no command make one. Each way a program or a system call makes a link is tried.
  it.for(['host', 'session'] as const)('makes no hard link, however it is asked for (%s backend)', async (backend) => {
    const { root, tool, run } = setUp(backend);
    // Every maker × every source (a file at the root, one in a sub-folder, an executable one a hook folder could name
    // later) × a destination beside it and one in another folder.
    fs.mkdirSync(path.join(root, 'sub'));
    fs.writeFileSync(path.join(root, 'sub', 'deep.txt'), 'deep\n');
    fs.writeFileSync(path.join(root, 'sub', 'hook'), '#!/bin/sh\n', { mode: 0o755 });
    const sources = ['ok.txt', 'sub/deep.txt', 'sub/hook'];
    const python = [
      'import ctypes, os, sys',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'def tmpfile(source, target):',
      '  # An unnamed file given a name by its descriptor (O_TMPFILE, then linkat with AT_EMPTY_PATH).',
      '  fd = os.open(os.path.dirname(target) or ".", os.O_TMPFILE | os.O_WRONLY, 0o600)',
      "  if libc.linkat(fd, b'', -100, target.encode(), 0x1000) != 0: raise OSError(ctypes.get_errno(), 'linkat')",
      'MAKERS = {',
      "  'os.link': lambda source, target: os.link(source, target),",
      "  'linkat': lambda source, target: os.link(source, target, src_dir_fd=os.open('.', os.O_RDONLY), follow_symlinks=False),",
      "  'proc-fd': lambda source, target: os.link(f'/proc/self/fd/{os.open(source, os.O_RDONLY)}', target, follow_symlinks=True),",
      "  'tmpfile': tmpfile,",
      '}',
      'for i, source in enumerate(sys.argv[1:]):',
      '  for folder in (".", "sub"):',
      '    for name, make in MAKERS.items():',
      '      try:',
      "        make(source, f'{folder}/py-{name}-{i}')",
      "        print(name, 'linked')",
      '      except OSError as error:',
      '        print(name, os.strerror(error.errno))',
    ].join('\n');
    fs.writeFileSync(path.join(root, 'links.py'), python);
    const programs = ['ln "$s"', 'ln -P "$s"', 'cp -l "$s"', 'cp --link "$s"', 'cp -al "$s"', 'link "$s"'];
    try {
      const output = await run(
        [
          `i=0; for s in ${sources.join(' ')}; do i=$((i+1)); for d in . sub; do`,
          ...programs.map((program, j) => `  ${program} "$d/made-${j}-$i";`),
          'done; done',
          `python3 links.py ${sources.join(' ')}; echo done`,
        ].join('\n'),
      );
      expect(output).toContain('done');
      for (const name of ['os.link', 'linkat', 'proc-fd', 'tmpfile']) expect(output).toMatch(new RegExp(`^${name} Operation not permitted$`, 'm'));
      expect(output).not.toMatch(/ linked$/m);
      // Every file of the workspace has one name, and no maker left a file behind.
      const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => fs.lstatSync(path.join(root, name)).isFile());
      expect(files.filter((name) => fs.lstatSync(path.join(root, name)).nlink > 1)).toEqual([]);
      expect(files.filter((name) => /made-|py-/.test(name))).toEqual([]);
    } finally {
      tool.dispose();
    }
  });

  // Generated: modes with a set-ID or a group/others' write bit, spread over all 4,096, asked for by chmod (octal
  // and symbolic), mkdir -m, mkfifo -m, install -m and python's os.open/os.mkdir/os.chmod.
  it.for(['host', 'session'] as const)('refuses every generated loose mode, however it is asked for (%s backend)', async (backend) => {
    const { root, tool, run } = setUp(backend);
    const loose = Array.from({ length: 4096 }, (_, mode) => mode).filter((mode) => mode & 0o6022);
    const modes = Array.from({ length: 48 }, (_, i) => loose[(i * 2654435761) % loose.length]!.toString(8).padStart(4, '0'));
    const symbolic = ['u+s', 'g+s', 'ug+s', 'o+w', 'g+w', 'a+w', 'go+w', 'a=rwx', 'u=rwxs', 'g=rws'];
    try {
      const python = `import os, sys\nfor i, m in enumerate(sys.argv[1:]):\n  m = int(m, 8)\n  for f in (lambda: os.close(os.open(f'po{i}', os.O_CREAT | os.O_WRONLY, m)), lambda: os.mkdir(f'pd{i}', m), lambda: os.chmod('ok.txt', m)):\n    try: f()\n    except OSError: pass\n`;
      fs.writeFileSync(path.join(root, 'modes.py'), python);
      await run(
        [
          'touch f; mkdir d',
          `for m in ${modes.join(' ')}; do chmod $m f; chmod $m d; mkdir -m $m d$m; mkfifo -m $m p$m; install -m $m /bin/true i$m; done`,
          `for m in ${symbolic.join(' ')}; do chmod $m f; chmod $m d; done`,
          `python3 modes.py ${modes.join(' ')}`,
        ].join('; '),
      );
      expect(looseModes(root)).toEqual([]);
    } finally {
      tool.dispose();
    }
  });

  it('still lets commands make, copy, unpack and run ordinary files', async () => {
    const { root, tool, run } = setUp('host');
    try {
      const output = await run(
        [
          'cp /bin/true run-me && chmod 755 run-me && ./run-me && echo ran',
          'chmod 600 ok.txt && chmod 644 ok.txt && mkdir m && chmod -R go-w m && echo modes',
          'mkdir -p a/b && cp -a a c && tar -cf /tmp/a.tar a && mkdir x && tar -xf /tmp/a.tar -C x && echo copied',
          `python3 -c "import os; os.close(os.open('p.txt', os.O_CREAT | os.O_WRONLY, 0o644)); print('python')"`,
          `node -e "require('fs').writeFileSync('n.txt', '1'); console.log('node')"`,
          'umask 077; mkdir private && echo masked',
        ].join('; '),
      );
      for (const said of ['ran', 'modes', 'copied', 'python', 'node', 'masked']) expect(output).toContain(said);
      expect(fs.statSync(path.join(root, 'run-me')).mode & 0o777).toBe(0o755);
      expect(fs.statSync(path.join(root, 'private')).mode & 0o777).toBe(0o700);
      expect(looseModes(root)).toEqual([]);
    } finally {
      tool.dispose();
    }
  });
});
