import { PROGRAM_SPECS } from '../shell/programs/index.js';
import type { OptionSpec, ProgramSpec } from '../shell/programs/program-spec.js';
import { optionsOf, spellingsOf } from './option-spellings.js';

/** The programs that read (or copy) whole trees: the ones with a `treeReader`, and the tree copiers. */
export const TREE_READERS = PROGRAM_SPECS.filter((spec) => spec.treeReader !== undefined || spec.role === 'tree-copier');

/**
 * Command lines on which `spec`'s program reads `target` as a tree (after `-r` where it needs one,
 * and its pattern where it takes one), each with one more option before it: every spelling of every
 * option its grammar knows, and options it does not know (which may take a value or read trees).
 * @example treeReadingCases(grep, '..') // [..., { title: '... grep -r -s PATTERN ..', argv: ['grep', '-r', '-s', 'PATTERN', '..'] }, ...]
 */
export function treeReadingCases(spec: ProgramSpec, target: string): Array<{ title: string; argv: string[]; option?: OptionSpec }> {
  const reads = spec.treeReader?.trees === 'always' ? undefined : spec.options.find((o) => o.readsTrees === true || o.copiesTrees);
  const before = reads ? [reads.names[0]!] : [];
  const after = [...(spec.treeReader?.pattern ? ['PATTERN'] : []), target, ...(spec.treeReader?.cwd ? [] : ['copy'])];
  const names = new Set(optionsOf(spec).flatMap((o) => o.names));
  const letter = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !names.has(`-${c}`));
  const unknown = [['--no-such-option'], ['--no-such-option=x'], ['--no-such-option', 'x'], ...(letter ? [[`-${letter}`], [`-${letter}`, 'x']] : [])];
  // Only the prefixes the program reads as the option: one that is another option's name is that option.
  const readAs = (option: OptionSpec, prefix?: string) => prefix === undefined || !names.has(prefix) || option.names.includes(prefix);
  const spelled: Array<{ how: string; words: string[]; option?: OptionSpec }> = [
    ...optionsOf(spec).flatMap((option) =>
      spellingsOf(spec, option).flatMap(({ how, words, prefix }) => (readAs(option, prefix) ? [{ how, words, option }] : [])),
    ),
    ...unknown.map((words) => ({ how: `unknown option ${words.join(' ')}`, words })),
  ];
  return spelled.map(({ how, words, option }) => {
    const argv = [spec.name, ...before, ...words, ...after];
    return { title: `${how}: ${argv.join(' ')}`, argv, ...(option ? { option } : {}) };
  });
}
