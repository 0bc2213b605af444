import { describe, expect, it } from 'vitest';
import { commandHelp } from '../help/command-help.js';
import { USAGE } from '../usage.js';
import { COMMANDS } from './command-table.js';

describe('COMMANDS', () => {
  it('has a section of the usage text for every command, and a command for every section', () => {
    const block = USAGE.slice(USAGE.indexOf('Commands:\n')).split('\n\n')[0]!;
    const sections = [...block.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]).filter((name) => name !== 'help');
    expect([...new Set(sections)].sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const name of Object.keys(COMMANDS)) expect(commandHelp(USAGE, name), name).toMatch(/^Usage: toolwright /);
  });
});
