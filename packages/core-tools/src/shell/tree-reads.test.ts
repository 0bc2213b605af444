import { describe, expect, it } from 'vitest';
import { scanArguments } from './option-scan.js';
import { treeReads } from './tree-reads.js';

describe(treeReads, () => {
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
    // An option it does not know is read as taking a value: the pattern is then taken for the path, and `.` is still read.
    ['rg', ['--max-depth', '2', 'KEY'], [], true],
    ['rg', ['--unknown-flag', 'KEY', 'src'], [], true],
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

describe(scanArguments, () => {
  const spec = { valued: 'e', flags: 'rn', longFlags: ['--all'] };

  it('splits clusters, glued and separate values, long options with and without =, and stops at --', () => {
    expect(scanArguments(['-rnefoo', 'x', '-e', 'bar', '--all', '--color=never', '--depth', '3', '--', '-y'], spec)).toEqual({
      operands: ['x', '-y'],
      options: [
        { name: '-r' },
        { name: '-n' },
        { name: '-e', value: 'foo' },
        { name: '-e', value: 'bar' },
        { name: '--all' },
        { name: '--color', value: 'never' },
        { name: '--depth', value: '3' },
      ],
    });
  });

  it('reads an unknown short option as taking a value, and digits as flags', () => {
    expect(scanArguments(['-5z', 'v', 'x'], spec)).toEqual({ operands: ['x'], options: [{ name: '-5' }, { name: '-z', value: 'v' }] });
  });
});
