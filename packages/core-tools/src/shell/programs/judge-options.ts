import type { ProgramSpec, Refusal } from './program-spec.js';
import { grammarOf, readWords, spelledOptions, type Grammar, type ReadWords } from './read-options.js';
import { ANY_PROGRAM_OPTIONS } from './any-program.js';

/** A program's grammar for these arguments: its options, its subcommand's, and those refused for every program. */
export function grammarFor(spec: ProgramSpec | undefined, args: readonly string[]): Grammar {
  const subcommand = args.find((arg) => !arg.startsWith('-'));
  const own = spec?.options ?? [];
  const sub = subcommand !== undefined ? (spec?.subcommands?.[subcommand] ?? []) : [];
  return grammarOf(spec?.syntax ?? 'getopt', [...own, ...sub, ...ANY_PROGRAM_OPTIONS], spec?.valuesFromNextWord);
}

/** How `program` reads `args` (see `readWords`). */
export function readArguments(spec: ProgramSpec | undefined, args: readonly string[], grammar = grammarFor(spec, args)): ReadWords {
  const stopAtOperand = spec?.syntax === 'builtin' || spec?.role === 'wrapper';
  return readWords(args, grammar, stopAtOperand, spec?.numericOption, spec?.gluedValues);
}

/**
 * Why `program` may not run with `args`, as data, or undefined. Every word before the end of its
 * options is checked for the refused options it may spell, values included: a grammar that wrongly
 * says an option takes a value can then refuse too much, never hide an option. A `words` program
 * (find) is checked at every word, `--` included.
 */
export function judgeOptions(program: string, spec: ProgramSpec | undefined, args: readonly string[]): Refusal | undefined {
  const grammar = grammarFor(spec, args);
  const read = readArguments(spec, args, grammar);
  const checked = grammar.syntax === 'words' ? args.length : read.end;
  // Options refused for every program are looked for up to the first `--` whatever the syntax, as
  // before the specs: `echo hi --files0-from` is refused too.
  const anyChecked = spec?.syntax === 'builtin' ? Math.max(checked, args.includes('--') ? args.indexOf('--') : args.length) : checked;
  for (let i = 0; i < anyChecked; i++) {
    for (const { option, name } of spelledOptions(args[i]!, grammar)) {
      if (!option.refused || (option.unless && given(option.unless, read))) continue;
      if (i >= checked && !ANY_PROGRAM_OPTIONS.includes(option)) continue;
      return { program, class: option.refused, option: name, ...(args[i] !== name ? { written: args[i] } : {}) };
    }
  }
  if (spec?.refusesAssignments) {
    const assignment = args.find((arg) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg));
    if (assignment !== undefined) return { program, class: 'sets-environment', option: assignment };
  }
  if (read.unlisted !== undefined)
    return { program, class: 'unlisted-option', option: args[read.unlisted]!, hint: spec?.plainUse ?? `use ${program} only with its plain options` };
  return spec?.judge?.(args);
}

/** Whether one of `names` is given as an option (not as a value, not after `--`). */
function given(names: readonly string[], read: ReadWords): boolean {
  const end = read.maybeValue ?? read.end;
  return read.options.some(({ index, option }) => index < end && option !== undefined && names.some((name) => option.names.includes(name)));
}

/**
 * The sources a tree copier copies whole, or undefined when it copies no tree: a word anywhere
 * that may spell a `copiesTrees` option makes the copy recursive (so does `cp -- -r`: copying too
 * little is the danger), and every operand is a source, and every word after the first `--`.
 */
export function copiedTrees(spec: ProgramSpec | undefined, args: readonly string[]): string[] | undefined {
  if (spec?.role !== 'tree-copier') return undefined;
  const grammar = grammarFor(spec, args);
  if (!args.some((arg) => spelledOptions(arg, grammar).some(({ option }) => option.copiesTrees))) return undefined;
  const read = readArguments(spec, args, grammar);
  // After the first `--` every word may be a source, dashes and all: it ends the options, or is the value of an
  // option the grammar does not know (`cp -r --f -- -dir out`: cp reads --f as --force, then -dir is a source).
  const after = read.maybeValue ?? read.end;
  return args.filter((arg, i) => !arg.startsWith('-') || i > after);
}
