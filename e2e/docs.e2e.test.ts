// The docs cannot drift: examples are compiled with the transformer and run, their output compared with
// docs/examples/expected/, and the generated reference pages and embedded copies must be current.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, run, tspc } from './support/run.js';

const examples = path.join(REPO, 'docs', 'examples');

describe('docs', () => {
  it('every example compiles with the transformer and prints what the docs show', () => {
    const build = tspc(['-p', path.join(examples, 'tsconfig.json')], examples);
    expect(build.output).toBe('');
    expect(build.status).toBe(0);
    const names = fs.readdirSync(path.join(examples, 'src')).map((f) => f.replace(/\.ts$/, ''));
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const name of names) {
      const result = run(process.execPath, [path.join(examples, 'dist', `${name}.js`)], examples);
      expect(result.status, name).toBe(0);
      expect(result.stdout, name).toBe(fs.readFileSync(path.join(examples, 'expected', `${name}.txt`), 'utf8'));
    }
  });

  it('the generated reference pages and the embedded examples are up to date', () => {
    const check = run(process.execPath, [path.join(REPO, 'tools', 'docs', 'generate-docs.mjs'), '--check'], REPO);
    expect(check.output).toContain('docs are up to date');
    expect(check.status).toBe(0);
  });
});
