import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AbsentPaths } from './absent-paths.js';

describe(AbsentPaths, () => {
  it('removes what came into being, a link itself and never its target, and leaves what was there before', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-absent-'));
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-absent-target-'));
    fs.writeFileSync(path.join(target, 'keep'), 'x');
    fs.writeFileSync(path.join(dir, '.env'), 'was here');
    const absent = new AbsentPaths(['.git', '.env', '.toolwright'].map((name) => path.join(dir, name)));
    fs.mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    fs.symlinkSync(target, path.join(dir, '.toolwright'));
    expect(absent.removeCreated().map((p) => path.basename(p))).toEqual(['.git', '.toolwright']);
    expect(fs.readdirSync(dir)).toEqual(['.env']);
    expect(fs.readFileSync(path.join(target, 'keep'), 'utf8')).toBe('x');
    fs.rmSync(dir, { recursive: true });
    fs.rmSync(target, { recursive: true });
  });
});
