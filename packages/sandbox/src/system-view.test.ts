import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyEtcEntries } from './system-view.js';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-etc-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe(copyEtcEntries, () => {
  it('keeps links within /etc as links, copies what a link out of it leads to (resolv.conf into /run), and names its folders to mount', () => {
    const etc = path.join(base, 'etc');
    const run = path.join(base, 'run');
    fs.mkdirSync(path.join(etc, 'alternatives'), { recursive: true });
    fs.mkdirSync(run);
    fs.writeFileSync(path.join(run, 'stub-resolv.conf'), 'nameserver 127.0.0.53\n');
    fs.symlinkSync('../run/stub-resolv.conf', path.join(etc, 'resolv.conf'));
    fs.writeFileSync(path.join(etc, 'alternatives', 'awk'), 'awk');
    fs.symlinkSync('alternatives/awk', path.join(etc, 'awk-link'));
    fs.symlinkSync('../run/missing', path.join(etc, 'dangling'));
    const out = path.join(base, 'out');
    fs.mkdirSync(out);
    // A folder is left as an empty mount point, for the host's to be mounted there read-only.
    expect(copyEtcEntries(out, ['resolv.conf', 'awk-link', 'dangling', 'alternatives', 'absent'], etc)).toEqual(['alternatives']);
    expect(fs.readdirSync(path.join(out, 'alternatives'))).toEqual([]);
    expect(fs.lstatSync(path.join(out, 'resolv.conf')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(out, 'resolv.conf'), 'utf8')).toBe('nameserver 127.0.0.53\n');
    expect(fs.readlinkSync(path.join(out, 'awk-link'))).toBe('alternatives/awk');
    expect(fs.existsSync(path.join(out, 'dangling'))).toBe(false);
    expect(fs.readdirSync(out).sort()).toEqual(['alternatives', 'awk-link', 'resolv.conf']);
  });
});
