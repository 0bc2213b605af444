import { describe, expect, it } from 'vitest';
import { TREE_READERS, treeReadingCases } from '../test-support/tree-reading-cases.js';
import { treeReads } from './tree-reads.js';

describe(treeReads, () => {
  // Words after -- are operands, unless the -- was the value of an option the grammar does not know: kept whole.
  it.for([
    ['rg', ['--no-hidden', '--', 'KEY', '-secretdir']],
    ['grep', ['-r', '--zz', '--', 'KEY', '-secretdir']],
  ] as const)('keeps a dashed word after -- as a tree: %s %j', ([program, args]) => {
    expect(treeReads(program, args).operands).toContain('-secretdir');
  });

  it.for([
    ['grep', ['-r', 'KEY'], [], true],
    ['grep', ['-rn', 'KEY', '.'], ['.'], false],
    ['grep', ['-rn', 'KEY', 'src', 'lib'], ['src', 'lib'], false],
    ['grep', ['-r', '-e', 'KEY'], [], true],
    ['grep', ['-r', '-e', 'KEY', 'src'], ['src'], false],
    ['grep', ['-rA', '3', 'KEY', 'src'], ['src'], false],
    ['grep', ['-r5', 'KEY'], [], true],
    ['grep', ['--recur', 'KEY'], [], true],
    ['grep', ['-d', 'recurse', 'KEY'], [], true],
    ['grep', ['--directories=rec', 'KEY', 'src'], ['src'], false],
    ['grep', ['KEY', 'src/a.ts'], [], false],
    ['grep', ['-n', 'KEY', 'secrets'], [], false],
    ['rg', ['KEY'], [], true],
    ['rg', ['KEY', 'src'], ['src'], false],
    ['rg', ['-g', '*.ts', 'KEY'], [], true],
    ['rg', ['--glob', '*.ts', 'KEY', 'src'], ['src'], false],
    ['rg', ['--max-depth', '2', 'KEY'], [], true],
    // An option it does not know may take a value or read trees: every operand is a tree, and `.` is read too.
    ['rg', ['--unknown-flag', 'KEY', 'src'], ['KEY', 'src'], true],
    ['grep', ['-r', '--unknown-flag', 'KEY', 'src'], ['KEY', 'src'], true],
    ['grep', ['--unknown-flag', 'KEY', 'src'], ['KEY', 'src'], true],
    ['grep', ['--re', 'KEY', 'src'], ['KEY', 'src'], true],
    ['grep', ['-rXm', 'src', 'KEY', 'lib'], ['src', 'KEY', 'lib'], true],
    ['diff', ['-fx', 'a', 'b'], ['a', 'b'], false],
    // After `--`, the pattern is judged as a path too.
    ['grep', ['-r', '--', 'KEY', 'src'], ['KEY', 'src'], false],
    ['grep', ['-r', '--', 'KEY'], ['KEY'], true],
    ['grep', ['-r', '-e', '--', 'KEY', 'src'], ['KEY', 'src'], false],
    ['grep', ['-rf', 'patterns', 'src'], ['src'], false],
    ['grep', ['--regexp=KEY', '-r', 'src'], ['src'], false],
    ['grep', ['-d', 'skip', 'KEY', 'src'], [], false],
    ['grep', ['-e', '-r', 'x', 'src'], ['x', 'src'], false],
    ['rg', ['--files'], [], true],
    ['rg', ['--files', 'src'], ['src'], false],
    ['rg', ['-e', 'KEY', '--', 'src'], ['src'], false],
    ['find', [], [], true],
    ['find', ['.', '-name', '*.key'], ['.'], false],
    ['find', ['-H', 'src', 'lib', '-type', 'f'], ['src', 'lib'], false],
    ['find', ['-name', 'x'], [], true],
    ['du', ['-a'], [], true],
    ['du', ['-sh', 'src'], ['src'], false],
    ['tree', ['-L', '2'], [], true],
    ['ls', [], [], false],
    ['ls', ['-la', 'secrets'], [], false],
    ['ls', ['-R'], [], true],
    ['ls', ['-laR', 'src'], ['src'], false],
    ['cp', ['a', 'b'], [], false],
    ['cp', ['-r', 'src', 'copy'], ['src', 'copy'], false],
    ['diff', ['-r', '--no-dereference', 'a', 'b'], ['a', 'b'], false],
    // Given directories, diff compares the files in them even without -r.
    ['diff', ['a', 'b'], ['a', 'b'], false],
    ['diff', ['-u', '--from-file=a', 'b'], ['b', 'a'], false],
    ['diff', ['--to-file', 'a', 'b'], ['b', 'a'], false],
    ['tree', ['-P', '*.ts', 'src'], ['src'], false],
    ['cat', ['secrets/k'], [], false],
    ['tar', ['-czf', 'out.tgz', '--directory=src', 'lib'], ['out.tgz', 'src', 'lib'], false],
  ] as const)('%s %j reads the trees %j, and the working directory: %s', ([program, args, operands, cwd]) => {
    expect(treeReads(program, args)).toEqual({ operands, cwd, fromRoot: [] });
  });

  it("reads git's pathspecs as trees, and a revision's path from the repository root", () => {
    expect(treeReads('git', ['log', '-p', '--', 'src'])).toEqual({ operands: ['src'], cwd: false, fromRoot: [] });
    expect(treeReads('git', ['show', 'HEAD:secrets/k'])).toMatchObject({ fromRoot: ['secrets/k'] });
    expect(treeReads('git', ['show', ':0:secrets/k'])).toMatchObject({ fromRoot: ['secrets/k'] });
    expect(treeReads('git', ['show', 'HEAD~2:./k'])).toMatchObject({ fromRoot: ['./k'], operands: ['HEAD~2:./k', './k'] });
    expect(treeReads('git', ['status'])).toEqual({ operands: [], cwd: false, fromRoot: [] });
  });
});

describe.each(TREE_READERS.map((spec) => [spec.name, spec] as const))('treeReads: %s with every option', (_name, spec) => {
  it.for(treeReadingCases(spec, '..'))('reads .. as a tree: $title', ({ argv }) => {
    expect(treeReads(spec.name, argv.slice(1)).operands).toContain('..');
  });
});
