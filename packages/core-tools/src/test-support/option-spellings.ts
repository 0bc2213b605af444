import { ANY_PROGRAM_OPTIONS } from '../shell/programs/any-program.js';
import type { OptionSpec, ProgramSpec, Refusal } from '../shell/programs/program-spec.js';

/** One command line a program spec says how to judge. */
export interface SpellingCase {
  /** How the option is spelled and where it stands, for the test title. */
  title: string;
  /** The whole command line: program and arguments. */
  argv: string[];
  /** Refused with one of these; accepted when empty. */
  refusals: Refusal[];
}

/** A value for an option that takes one: a word that spells no option (sed's must be a printing script). */
const VALUES: Record<string, string> = { sed: '1p' };
const valueOf = (spec: ProgramSpec) => VALUES[spec.name] ?? 'x';

const isShort = (name: string) => /^-[^-]$/.test(name);
const isLong = (name: string) => name.startsWith('--') && name.length > 2;

/** Where a spelling may stand: before the operands, after other options, after the operands where options permute, after `--` for find. */
function placements(spec: ProgramSpec, spelled: readonly string[], lead = spec.usage.lead ?? []): Array<{ where: string; args: string[] }> {
  const { options = [], operands } = spec.usage;
  const out = [{ where: 'before the operands', args: [...lead, ...spelled, ...operands] }];
  if (options.length > 0) out.push({ where: 'after other options', args: [...lead, ...options, ...spelled, ...operands] });
  const permutes = spec.syntax === 'getopt' || spec.syntax === 'words' || (spec.syntax === 'listed' && spec.role !== 'wrapper');
  if (permutes && operands.length > 0) out.push({ where: 'after the operands', args: [...lead, ...options, ...operands, ...spelled] });
  if (spec.syntax === 'words') out.push({ where: 'after --', args: [...lead, '--', ...spelled, ...operands] });
  return out;
}

/** The options of `spec` that may be given with these first words (git's subcommand adds its own), and those of every program. */
export function optionsOf(spec: ProgramSpec, subcommand?: string): OptionSpec[] {
  return [...spec.options, ...((subcommand && spec.subcommands?.[subcommand]) || []), ...ANY_PROGRAM_OPTIONS];
}

/** Allowed short options without a value, to build clusters with. */
function clusterFlags(spec: ProgramSpec): string[] {
  if (spec.syntax === 'words') return [];
  return spec.options.filter((o) => !o.refused && !o.value).flatMap((o) => o.names.filter(isShort).map((n) => n.slice(1)));
}

/** Refused options whose long names begin with `given` (the program reads a prefix as the option, or as ambiguous). */
function prefixRefusals(program: string, given: string, options: readonly OptionSpec[], written: string): Refusal[] {
  return options.flatMap((o) =>
    o.refused
      ? o.names
          .filter((n) => isLong(n) && n.startsWith(given))
          .map((n): Refusal => ({ program, class: o.refused!, option: n, ...(written !== n ? { written } : {}) }))
      : [],
  );
}

/** Every way `spec`'s program accepts a spelling of `option`, each as the words that spell it and the option name it reports. */
export function spellingsOf(spec: ProgramSpec, option: OptionSpec): Array<{ how: string; words: string[]; name: string; prefix?: string }> {
  const value = valueOf(spec);
  const required = option.value === 'required';
  const withValue = (word: string) => (required ? [word, value] : [word]);
  const out: Array<{ how: string; words: string[]; name: string; prefix?: string }> = [];
  const listed = spec.syntax === 'listed' && !option.refused;
  for (const name of option.names) {
    if (spec.syntax === 'words' || (!isShort(name) && !isLong(name))) {
      out.push({ how: `${name} as a word`, words: withValue(name), name });
      continue;
    }
    if (isShort(name)) {
      out.push({ how: `${name} alone`, words: withValue(name), name });
      // Where values come from the next word (tree), none is glued, and one follows the cluster wherever its letter is.
      if (option.value && (!listed || spec.gluedValues) && !spec.valuesFromNextWord)
        out.push({ how: `${name} with its value glued`, words: [`${name}${value}`], name });
      if (listed) continue;
      const flags = clusterFlags(spec)
        .filter((f) => f !== name.slice(1))
        .slice(0, 2);
      for (let at = 0; at <= flags.length && flags.length > 0; at++) {
        const letters = [...flags.slice(0, at), name.slice(1), ...flags.slice(at)].join('');
        const word = `-${letters}`;
        out.push({
          how: `${name} at position ${at + 1} of the cluster ${word}`,
          words: at === flags.length || spec.valuesFromNextWord ? withValue(word) : [word],
          name,
        });
      }
      continue;
    }
    out.push({ how: `${name}`, words: withValue(name), name });
    if (option.value && (!listed || spec.gluedValues)) out.push({ how: `${name}=value`, words: [`${name}=${value}`], name });
    if (listed || spec.syntax === 'builtin') continue;
    for (let length = 3; length < name.length; length++) {
      const prefix = name.slice(0, length);
      out.push({ how: `${name} abbreviated to ${prefix}`, words: withValue(prefix), name, prefix });
      if (option.value) out.push({ how: `${name} abbreviated to ${prefix}=value`, words: [`${prefix}=${value}`], name, prefix });
    }
  }
  return out;
}

/** Each refused option of `spec` (and of its subcommands), in every spelling and place: each must be refused with its class. */
export function refusedCases(spec: ProgramSpec): SpellingCase[] {
  const groups: Array<[OptionSpec[], string | undefined]> = [[spec.options.filter((o) => o.refused), undefined]];
  for (const [subcommand, options] of Object.entries(spec.subcommands ?? {})) groups.push([options.filter((o) => o.refused), subcommand]);
  const cases: SpellingCase[] = [];
  for (const [refused, subcommand] of groups) {
    const options = optionsOf(spec, subcommand);
    const lead = subcommand === undefined ? undefined : [subcommand];
    for (const option of refused) {
      for (const { how, words, name, prefix } of spellingsOf(spec, option)) {
        const written = words[0]!;
        const refusals = prefix
          ? prefixRefusals(spec.name, prefix, options, written)
          : [{ program: spec.name, class: option.refused!, option: name, ...(written !== name ? { written } : {}) }];
        for (const { where, args } of placements(spec, words, lead)) cases.push({ title: `${how}, ${where}`, argv: [spec.name, ...args], refusals });
      }
    }
  }
  return cases;
}

/**
 * Each allowed option of `spec` in every spelling and place: each must be accepted, except a long
 * option spelled as a prefix of a refused one, which is refused (refused options are matched by
 * any prefix, even one the program would read as another option).
 */
export function allowedCases(spec: ProgramSpec): SpellingCase[] {
  const options = optionsOf(spec);
  // The long options the program itself has, to tell which prefixes it reads as one of them.
  const longNames = spec.options.filter((o) => !ANY_PROGRAM_OPTIONS.includes(o)).flatMap((o) => o.names.filter(isLong));
  const cases: SpellingCase[] = [];
  for (const option of spec.options.filter((o) => !o.refused)) {
    for (const { how, words, name, prefix } of spellingsOf(spec, option)) {
      // Only the prefixes the program reads as this option: an ambiguous one is the program's error.
      if (prefix && longNames.filter((n) => n.startsWith(prefix)).some((n) => !option.names.includes(n))) continue;
      const given = words[0]!.split('=')[0]!;
      const refusals = isLong(given) ? prefixRefusals(spec.name, given, options, words[0]!) : [];
      for (const { where, args } of placements(spec, words)) cases.push({ title: `${how} (${name}), ${where}`, argv: [spec.name, ...args], refusals });
    }
  }
  if (spec.numericOption) cases.push({ title: '-5 (a number)', argv: [spec.name, '-5', ...spec.usage.operands], refusals: [] });
  return cases;
}

/** Where a refused spelling is not an option at all: after `--`, as a builtin's operand, or after a wrapper's command. */
export function notOptionCases(spec: ProgramSpec): SpellingCase[] {
  if (spec.syntax === 'words' || spec.refused) return [];
  const cases: SpellingCase[] = [];
  const { lead = [], operands } = spec.usage;
  // Options refused for every program are refused wherever they stand (see judgeOptions).
  for (const option of spec.options.filter((o) => o.refused && !ANY_PROGRAM_OPTIONS.some((any) => any.names.includes(o.names[0]!)))) {
    const name = option.names[0]!;
    if (spec.role !== 'wrapper' && spec.name !== 'sed' && spec.judge === undefined)
      cases.push({ title: `${name} after --`, argv: [spec.name, ...lead, '--', name, ...operands], refusals: [] });
    if (spec.syntax === 'builtin' && operands.length > 0)
      cases.push({ title: `${name} after the first operand`, argv: [spec.name, ...lead, ...operands, name], refusals: [] });
    if (spec.role === 'wrapper') cases.push({ title: `${name} after the command (an option of ls)`, argv: [spec.name, ...operands, name, 'x'], refusals: [] });
  }
  return cases;
}
