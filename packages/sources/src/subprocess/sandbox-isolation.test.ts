// What a subprocess tool's program can reach inside the kernel sandbox: its folder and the system's read-only, the
// workspace as its tier allows, a private /tmp, nothing else of the host, no network. Needs bubblewrap (the sandbox
// probe must have run one here); skipped only where it cannot.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { failure, folder, runPython, snapshot, value } from './test-support/python-tool.js';
import { runSubprocess } from './run-subprocess.js';
import { sandboxHere } from './test-support/sandbox-here.js';
import { subprocessRequest } from './test-support/subprocess-request.js';

const here = await sandboxHere();

const inRepository: string[] = [];
afterAll(() => inRepository.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10 })));

/** A folder outside /tmp (in the repository, where the tests' temporary folders are ignored), removed after the file. */
function repoFolder(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(fileURLToPath(new URL('../../../../', import.meta.url)), '.tmp-subprocess-')));
  inRepository.push(dir);
  return dir;
}
const REQUIRED = { sandbox: 'required' } as const;

/** Python that tries each write and reports, per path, `ok` or the error's name (`OSError` subclass and errno). */
function tryWrites(paths: Record<string, string>): string {
  return [
    'import json, os, sys',
    `paths = ${JSON.stringify(paths)}`,
    'result = {}',
    'for name, target in paths.items():',
    '    try:',
    '        with open(target, "w") as f: f.write("written by the tool")',
    '        result[name] = "ok"',
    '    except OSError as error:',
    '        result[name] = error.__class__.__name__ + ":" + (os.strerror(error.errno) if error.errno else "")',
    'print(json.dumps(result))',
  ].join('\n');
}

describe.skipIf(!here.bubblewrap)(`a subprocess tool in the sandbox (needs bubblewrap${here.reason ? `: ${here.reason}` : ''})`, () => {
  // The workspace's parent: in the host's /tmp (then the sandbox has it on its own /tmp, in memory), or elsewhere
  // (then it lies on the sandbox's read-only root).
  // (The repository itself may lie in /tmp, as a CI checkout does: then its folder is one in /tmp too.)
  const inTmp = (dir: string) => dir === '/tmp' || dir.startsWith('/tmp/');
  it.for([
    ['in /tmp', () => folder('tw-subprocess-parent-'), () => 'ok'],
    ['outside /tmp', () => repoFolder(), (parent: string) => (inTmp(parent) ? 'ok' : 'OSError:Read-only file system')],
  ] as const)(
    'writes the workspace of a side-effecting tool, and nothing of the host outside it: not /tmp, the workspace’s parent (%s), the tool’s folder or the system',
    async ([, makeParent, parentWrite]) => {
      const parent = makeParent();
      const workspace = path.join(parent, 'workspace');
      fs.mkdirSync(workspace);
      fs.writeFileSync(path.join(workspace, 'notes.txt'), 'kept');
      const toolDir = folder('tw-subprocess-tool-');
      fs.writeFileSync(path.join(toolDir, 'tool.py'), 'print(1)\n');
      const outside = `/tmp/x-outside-${randomBytes(6).toString('hex')}`;
      const before = { parent: fs.readdirSync(parent), tools: snapshot(toolDir) };
      const { result } = await runPython(
        tryWrites({
          workspace: path.join(workspace, 'out.txt'),
          tmp: outside,
          parent: path.join(workspace, '..', 'x-outside.txt'),
          tools: path.join(toolDir, 'tool.py'),
          toolsNew: path.join(toolDir, 'new.py'),
          system: '/usr/x-outside.txt',
          root: '/x-outside.txt',
          git: path.join(workspace, '.git', 'config'),
          env: path.join(workspace, '.env'),
        }),
        REQUIRED,
        { workspace, toolDir, tier: 'side-effecting' },
      );
      const readOnly = 'OSError:Read-only file system';
      // /tmp is the sandbox's own (empty, in memory): a write there succeeds, and is gone with the sandbox.
      expect(value(result)).toEqual({
        workspace: 'ok',
        tmp: 'ok',
        parent: parentWrite(parent),
        tools: readOnly,
        toolsNew: readOnly,
        system: readOnly,
        root: readOnly,
        git: readOnly,
        env: readOnly,
      });
      expect(fs.readFileSync(path.join(workspace, 'out.txt'), 'utf8')).toBe('written by the tool');
      expect(fs.existsSync(outside)).toBe(false);
      expect({ parent: fs.readdirSync(parent), tools: snapshot(toolDir) }).toEqual(before);
      // The placeholders that kept .git and .env from being made are gone again.
      expect(fs.readdirSync(workspace).sort()).toEqual(['notes.txt', 'out.txt']);
    },
  );

  it.for([
    ['in a folder of the workspace', 'tools'],
    ['at the workspace’s root', '.'],
  ])('keeps the tool’s own files read-only when they lie %s, while the rest of the workspace is writable', async ([, relative]) => {
    const workspace = folder('tw-subprocess-ws-');
    const toolDir = path.join(workspace, relative!);
    fs.mkdirSync(toolDir, { recursive: true });
    const program = path.join(toolDir, 'tool.py');
    const code = tryWrites({ program, data: path.join(workspace, 'data.txt') });
    fs.writeFileSync(program, code);
    const request = subprocessRequest(['python3', program], toolDir, REQUIRED, { workspace, tier: 'side-effecting' });
    expect(await runSubprocess(request)).toEqual({ program: 'OSError:Read-only file system', data: 'ok' });
    expect(fs.readFileSync(program, 'utf8')).toBe(code);
    expect(fs.readFileSync(path.join(workspace, 'data.txt'), 'utf8')).toBe('written by the tool');
  });

  it('keeps the workspace read-only for a read-only tool, which still reads it', async () => {
    const workspace = folder('tw-subprocess-ws-');
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'kept');
    const before = snapshot(workspace);
    const code = `${tryWrites({ write: path.join(workspace, 'notes.txt'), create: path.join(workspace, 'new.txt') })}\n`;
    const read = `import json; print(json.dumps(open(${JSON.stringify(path.join(workspace, 'notes.txt'))}).read()))`;
    const writes = value<Record<string, string>>((await runPython(code, REQUIRED, { workspace, tier: 'read-only' })).result);
    expect(writes).toEqual({ write: 'OSError:Read-only file system', create: 'OSError:Read-only file system' });
    expect(value((await runPython(read, REQUIRED, { workspace, tier: 'read-only' })).result)).toBe('kept');
    expect(snapshot(workspace)).toEqual(before);
  });

  it('gives a read-only tool the /dev and /proc programs expect, and a workspace read-only as a whole (its folders too)', async () => {
    const workspace = folder('tw-subprocess-ws-');
    fs.mkdirSync(path.join(workspace, 'src'));
    fs.writeFileSync(path.join(workspace, 'src', 'a.txt'), 'kept');
    const before = snapshot(workspace);
    const code = [
      'import json, os',
      'open("/dev/null", "w").write("x")',
      'status = open("/proc/self/status").read().splitlines()[0]',
      `moved = "ok"`,
      'try:',
      `    os.rename(${JSON.stringify(path.join(workspace, 'src'))}, ${JSON.stringify(path.join(workspace, 'moved'))})`,
      'except OSError as error:',
      '    moved = os.strerror(error.errno)',
      'print(json.dumps({"status": status, "moved": moved, "zero": len(open("/dev/zero", "rb").read(4))}))',
    ].join('\n');
    const result = value<Record<string, unknown>>((await runPython(`${code}\n`, REQUIRED, { workspace, tier: 'read-only' })).result);
    expect(result).toEqual({ status: expect.stringMatching(/^Name:\s+python3/), moved: 'Read-only file system', zero: 4 });
    expect(snapshot(workspace)).toEqual(before);
  });

  it('shows nothing else of the host: no home, no other processes, no host /tmp, and the program starts in its tool folder', async () => {
    const hostFile = folder('tw-subprocess-host-');
    fs.writeFileSync(path.join(hostFile, 'secret.txt'), 'host secret');
    const toolDir = folder('tw-subprocess-tool-');
    const code = [
      'import json, os',
      'def visible(p):',
      '    try: return sorted(os.listdir(p))',
      '    except OSError as error: return error.__class__.__name__',
      `print(json.dumps({"home": visible(${JSON.stringify(os.homedir())}), "host": visible(${JSON.stringify(hostFile)}), "tmp": visible("/tmp"),`,
      '  "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), "cwd": os.getcwd(), "HOME": os.environ["HOME"]}))',
    ].join('\n');
    const workspace = folder('tw-subprocess-ws-');
    const seen = value<Record<string, unknown>>((await runPython(code, REQUIRED, { toolDir, workspace })).result);
    expect(seen.home).toBe('FileNotFoundError');
    expect(seen.host).toBe('FileNotFoundError');
    // The sandbox's own /tmp: its HOME, and the folders bubblewrap made to mount the tool's folder and the workspace on.
    expect(seen.tmp).toEqual(['home', path.basename(toolDir), path.basename(workspace)].sort());
    // bubblewrap's first process, and the program.
    expect((seen.pids as number[]).length).toBeLessThanOrEqual(2);
    expect({ cwd: seen.cwd, HOME: seen.HOME }).toEqual({ cwd: toolDir, HOME: '/tmp/home' });
  });

  it('gives the program no network unless the tool asks for it', async () => {
    const code = [
      'import json, socket',
      'try:',
      '    socket.create_connection(("1.1.1.1", 53), timeout=3)',
      '    print(json.dumps("connected"))',
      'except OSError as error:',
      '    print(json.dumps(error.__class__.__name__ + ":" + str(error.errno)))',
      '',
    ].join('\n');
    expect(value((await runPython(code, REQUIRED)).result)).toMatch(/^OSError:101$/); // ENETUNREACH: no interface but loopback
    const interfaces = 'import json, socket; print(json.dumps(sorted(name for _, name in socket.if_nameindex())))';
    expect(value((await runPython(interfaces, REQUIRED)).result)).toEqual(['lo']);
    expect(value((await runPython(interfaces, { ...REQUIRED, network: true })).result)).not.toEqual(['lo']);
    // A call whose capabilities are granted explicitly has the network only when they hold net.connect, as the shell's commands.
    expect(value((await runPython(interfaces, { ...REQUIRED, network: true }, { capabilities: ['fs.read'] })).result)).toEqual(['lo']);
    expect(value((await runPython(interfaces, { ...REQUIRED, network: true }, { capabilities: ['net.connect'] })).result)).not.toEqual(['lo']);
  });

  it('refuses a tool whose folder the sandbox cannot show (in a home directory) with sandbox_unavailable', async () => {
    const home = fs.mkdtempSync(path.join(os.homedir(), '.tw-subprocess-tool-'));
    try {
      const error = failure((await runPython('print(1)', REQUIRED, { toolDir: home, workspace: folder('tw-subprocess-ws-') })).result);
      expect(error.code).toBe('sandbox_unavailable');
      expect(error.message).toMatch(/cannot show the tool's folder '.*': it is, holds or lies in the home directory/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 10 });
    }
  });
});

describe('a subprocess tool with the sandbox off', () => {
  it('runs on the host with a private HOME, removed once the call has ended', async () => {
    const code = 'import json, os; print(json.dumps({"home": os.environ["HOME"], "tmpdir": os.environ["TMPDIR"], "made": os.path.isdir(os.environ["HOME"])}))';
    const seen = value<{ home: string; tmpdir: string; made: boolean }>((await runPython(code, { sandbox: 'off' })).result);
    expect(seen).toEqual({ home: expect.stringMatching(/toolwright-subprocess-/), tmpdir: seen.home, made: true });
    expect(fs.existsSync(seen.home)).toBe(false);
  });
});
