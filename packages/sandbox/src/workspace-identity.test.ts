import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { identityOf, openWorkspace, workspaceProblem } from './workspace-identity.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-identity-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
let made = 0;

/** A workspace at `parent/ws` and its identity, as recorded when tools are set up. */
function workspace() {
  const parent = path.join(base, `p${++made}`);
  const root = path.join(parent, 'ws');
  fs.mkdirSync(root, { recursive: true });
  return { parent, root, identity: identityOf(root) };
}

describe('the workspace is the folder the tools were set up on', () => {
  it('opens it while it is, reached by its own name', () => {
    const { root, identity } = workspace();
    expect(workspaceProblem(root, identity)).toBeUndefined();
    const fd = openWorkspace(root, identity);
    try {
      expect(fs.readlinkSync(`/proc/self/fd/${fd}`)).toBe(root);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('refuses a link put in its place, another folder, a link on the way, and its absence, each saying which', () => {
    const replaced = workspace();
    fs.renameSync(replaced.root, `${replaced.root}.real`);
    fs.symlinkSync(base, replaced.root);
    expect(workspaceProblem(replaced.root, replaced.identity)).toBe('is now a symbolic link or no folder');

    const other = workspace();
    fs.renameSync(other.root, `${other.root}.real`);
    fs.mkdirSync(other.root);
    expect(workspaceProblem(other.root, other.identity)).toBe('was replaced by another folder');

    const onTheWay = workspace();
    fs.renameSync(onTheWay.parent, `${onTheWay.parent}.real`);
    fs.symlinkSync(`${onTheWay.parent}.real`, onTheWay.parent);
    expect(workspaceProblem(onTheWay.root, onTheWay.identity)).toBe(`is reached through a symbolic link (it leads to '${onTheWay.parent}.real/ws')`);

    const gone = workspace();
    fs.rmSync(gone.root, { recursive: true });
    expect(workspaceProblem(gone.root, gone.identity)).toBe('is gone (moved or removed)');
    expect(() => openWorkspace(gone.root, gone.identity)).toThrow(`the workspace '${gone.root}' is gone (moved or removed)`);
  });
});
