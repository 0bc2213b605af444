import { describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli.js';
import { commandHelp, commandHelpRequest } from './command-help.js';

const COMMANDS = ['init', 'emit', 'build', 'list', 'call', 'serve', 'policy', 'doctor', 'help'] as const;

const USAGE = `Usage: tool <command>

Commands:
  emit    Write the manifest.
          --out <file>   where
  policy check <file>
          Check a policy.
  policy explain <tool>
          Explain a call.
        Only with --policy.

Configuration: call and policy read a config file.

Exit codes: 0 ok.
`;

describe(commandHelp, () => {
  it("prints a command's section of the usage text, dedented, with the paragraphs that name it", () => {
    expect(commandHelp(USAGE, 'emit')).toBe('Usage: toolwright emit [options]\n\n  Write the manifest.\n  --out <file>   where\n\nExit codes: 0 ok.\n');
    expect(commandHelp(USAGE, 'policy')).toBe(
      [
        'Usage: toolwright policy check <file>',
        '',
        '  Check a policy.',
        '',
        'Usage: toolwright policy explain <tool>',
        '',
        '    Explain a call.',
        '  Only with --policy.',
        '',
        'Configuration: call and policy read a config file.',
        '',
        'Exit codes: 0 ok.',
        '',
      ].join('\n'),
    );
    expect(commandHelp(USAGE, 'frob')).toBeUndefined();
  });
});

describe(commandHelpRequest, () => {
  it.for([
    [['emit', '--help'], 'emit'],
    [['emit', '-p', 'x.json', '-h'], 'emit'],
    [['help', 'emit'], 'emit'],
    [['emit', '--', '--help'], undefined],
    [['emit'], undefined],
    [['help'], undefined],
    [['--help'], undefined],
  ] as const)('%j asks for the help of %s', ([argv, command]) => {
    expect(commandHelpRequest(argv, USAGE)).toBe(command === undefined ? undefined : commandHelp(USAGE, command));
  });
});

describe('toolwright <command> --help', () => {
  it.for(COMMANDS)("%s --help prints that command's help and exits 0", async (command) => {
    const result = await runCli([command, '--help']);
    expect(result).toMatchObject({ status: 0, err: '' });
    expect(result.out).toMatch(new RegExp(`^Usage: toolwright ${command}\\b`));
    expect(await runCli(['help', command])).toEqual(result);
    expect(await runCli([command, '-h'])).toEqual(result);
  });

  it('serve --help does not need --mcp', async () => {
    const result = await runCli(['serve', '--help']);
    expect(result.out).toContain('--mcp stdio | --mcp http');
    expect(result.out).toContain('--allow-origin <o>');
  });

  it('help of an unknown command is a usage error', async () => {
    expect(await runCli(['help', 'frobnicate'])).toMatchObject({ status: 2, err: expect.stringContaining("Unknown command 'frobnicate'") });
  });
});
