import { describe, expect, it } from 'vitest';
import { allowedCases, notOptionCases, refusedCases, type SpellingCase } from '../../test-support/option-spellings.js';
import type { PathConfinement } from '../command-verdict.js';
import { judgeCommand } from '../judge-command.js';
import { ANY_PROGRAM_OPTIONS } from './any-program.js';
import { describeRefusal } from './describe-refusal.js';
import { PROGRAM_SPECS } from './index.js';
import type { ProgramSpec } from './program-spec.js';

// Every case is judged by judgeCommand itself, with every path accepted: only the program rules decide.
const ANY_PATH: PathConfinement = { root: '/workspace', check: () => undefined, checkTree: () => undefined };

function judge(spec: ProgramSpec, argv: string[]) {
  const allow = spec.role === 'wrapper' ? ['ls'] : [spec.name];
  return judgeCommand(argv, { allow }, ANY_PATH);
}

function expectVerdict(spec: ProgramSpec, { argv, refusals }: SpellingCase) {
  const verdict = judge(spec, argv);
  if (refusals.length === 0) {
    expect(verdict, argv.join(' ')).toEqual({ ok: true, program: spec.role === 'wrapper' ? 'ls' : spec.name });
    return;
  }
  expect(verdict.ok, argv.join(' ')).toBe(false);
  if (!verdict.ok) expect(refusals.map(describeRefusal), argv.join(' ')).toContain(verdict.reason);
}

/** Every spec that may run, with the options every program refuses added to its own (where it does not list them). */
const RUNNABLE = PROGRAM_SPECS.filter((spec) => spec.refused === undefined && spec.name !== 'assignment').map((spec): ProgramSpec => ({
  ...spec,
  options: [...spec.options, ...ANY_PROGRAM_OPTIONS.filter((any) => !spec.options.some((own) => own.names.some((name) => any.names.includes(name))))],
}));

describe.each(RUNNABLE.map((spec) => [spec.name, spec] as const))('judgeCommand: %s', (_name, spec) => {
  const refused = refusedCases(spec);
  const allowed = allowedCases(spec);
  const notOptions = notOptionCases(spec);

  it.for(refused)('refuses $title', (c) => expectVerdict(spec, c));
  if (allowed.length > 0) it.for(allowed)('accepts $title', (c) => expectVerdict(spec, c));
  if (notOptions.length > 0) it.for(notOptions)('accepts $title', (c) => expectVerdict(spec, c));

  it('accepts its usage example', () => {
    const { lead = [], options = [], operands } = spec.usage;
    expectVerdict(spec, { title: 'usage', argv: [spec.name, ...lead, ...options, ...operands], refusals: [] });
  });
});

describe('judgeCommand: programs that never run', () => {
  it.for(PROGRAM_SPECS.filter((spec) => spec.refused !== undefined))('refuses $name whatever the allowlist says', (spec) => {
    const verdict = judgeCommand([spec.name, 'ls'], { allow: [spec.name, 'ls'] }, ANY_PATH);
    expect(verdict).toEqual({ ok: false, reason: describeRefusal({ program: spec.name, class: spec.refused! }) });
  });
});

describe('judgeCommand: programs without a spec', () => {
  const tar: ProgramSpec = { name: 'tar', role: 'plain', syntax: 'getopt', options: ANY_PROGRAM_OPTIONS, usage: { operands: ['notes.txt'] } };
  it.for(refusedCases(tar))('refuses tar $title', (c) => expectVerdict(tar, c));
});
