import type { OptionSpec, OptionSyntax } from './program-spec.js';

/** A program's options by every spelling, with its long names for prefix matching. */
export interface Grammar {
  readonly syntax: OptionSyntax;
  readonly byName: ReadonlyMap<string, OptionSpec>;
  readonly longNames: readonly string[];
  /** A short option's value is the next word and the cluster goes on (`ProgramSpec.valuesFromNextWord`). */
  readonly valuesFromNextWord?: true;
}

export function grammarOf(syntax: OptionSyntax, options: readonly OptionSpec[], valuesFromNextWord?: true): Grammar {
  const byName = new Map<string, OptionSpec>();
  for (const option of options) for (const name of option.names) if (!byName.has(name)) byName.set(name, option);
  return { syntax, byName, longNames: [...byName.keys()].filter((name) => name.startsWith('--')), ...(valuesFromNextWord ? { valuesFromNextWord } : {}) };
}

/** An option a word spells, by the name the program gives it. */
export interface SpelledOption {
  readonly option: OptionSpec;
  readonly name: string;
}

/**
 * Every option `word` may spell, erring towards more: the word itself when it is a name; every long
 * option its name (before `=`) is a prefix of, even where the program would read an exact match
 * or call the prefix ambiguous; every letter of a short-option cluster up to the first that takes
 * a value (the rest is that value), or every letter where values come from the next word (tree).
 * @example `-laL` → `-l`, `-a`, `-L`; `--compress-prog=x` → `--compress-program`; `-tL` (cp) → `-t`
 */
export function spelledOptions(word: string, grammar: Grammar): SpelledOption[] {
  const found: SpelledOption[] = [];
  const exact = grammar.byName.get(word);
  if (exact) found.push({ option: exact, name: word });
  if (word.startsWith('--')) {
    const given = word.split('=')[0]!;
    if (given.length <= 2) return found;
    for (const name of grammar.longNames) if (name !== word && name.startsWith(given)) found.push({ option: grammar.byName.get(name)!, name });
    return found;
  }
  if (grammar.syntax === 'words' || !/^-[^-]/.test(word)) return found;
  for (const char of word.slice(1)) {
    const option = grammar.byName.get(`-${char}`);
    if (!option) continue;
    if (`-${char}` !== word) found.push({ option, name: `-${char}` });
    if (option.value && !grammar.valuesFromNextWord) break;
  }
  return found;
}

/** The long option `given` names, as getopt_long reads it: an exact name, or the only name it is a prefix of. */
function resolveLong(given: string, grammar: Grammar): string | undefined {
  if (grammar.byName.has(given)) return given;
  const matches = grammar.longNames.filter((name) => name.startsWith(given));
  return matches.length === 1 ? matches[0] : undefined;
}

/** How a program reads its words. */
export interface ReadWords {
  /** Index of the first word that is not read as an option: the `--` that ends them, or (for builtins and wrappers) the first operand; else the length. */
  readonly end: number;
  /** The options read, by the name the program gives them (unknown ones by the word), with the value each takes. */
  readonly options: ReadonlyArray<{ readonly index: number; readonly name: string; readonly option?: OptionSpec; readonly value?: string }>;
  /** Indices of operands. */
  readonly operands: readonly number[];
  /** The first option word that is not one of the listed spellings (`listed` syntax). */
  readonly unlisted?: number;
  /**
   * A `--` read as the value of the unknown option before it, which may end the options instead: options are read on
   * past it (so none is hidden), and only those before it count as surely given.
   */
  readonly maybeValue?: number;
}

/**
 * Reads `args` as the program does: which words are options (and which values they take), which
 * are operands, and where options end. Options the grammar does not know take no value, except that a `--` right
 * after one is read as its possible value (`maybeValue`), not as the end of the options.
 * `stopAtOperand`: options end at the first operand (a builtin, or a wrapper before its command).
 */
export function readWords(args: readonly string[], grammar: Grammar, stopAtOperand: boolean, numericOption = false, gluedValues = false): ReadWords {
  const options: Array<{ index: number; name: string; option?: OptionSpec; value?: string }> = [];
  // The next word, taken as a value (absent at the end: the program then reports the missing value).
  let i = 0;
  const next = (): { value?: string } => (++i < args.length ? { value: args[i]! } : {});
  const operands: number[] = [];
  let unlisted: number | undefined;
  let maybeValue: number | undefined;
  const read = (end: number): ReadWords => ({
    end,
    options,
    operands,
    ...(unlisted !== undefined ? { unlisted } : {}),
    ...(maybeValue !== undefined ? { maybeValue } : {}),
  });
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (grammar.syntax === 'words') {
      const option = grammar.byName.get(word);
      if (option) options.push({ index: i, name: word, option, ...(option.value === 'required' ? next() : {}) });
      else operands.push(i);
      continue;
    }
    if (word === '--') {
      // After an option the grammar does not know, `--` may be that option's value (`diff -L -- -r`, `git log
      // --decorate-refs -- -p`): the program then reads the words after it as options, so they are read as options.
      const before = options.at(-1);
      if (before && before.index === i - 1 && !before.option && before.value === undefined) {
        maybeValue ??= i;
        continue;
      }
      for (let rest = i + 1; rest < args.length; rest++) operands.push(rest);
      return read(i);
    }
    const named = grammar.byName.get(word);
    if ((word.length < 2 || !word.startsWith('-')) && !named) {
      if (stopAtOperand) {
        for (let rest = i; rest < args.length; rest++) operands.push(rest);
        return read(i);
      }
      operands.push(i);
      continue;
    }
    if (grammar.syntax === 'listed') {
      const listed = readListed(word, grammar, numericOption, gluedValues);
      if (listed === undefined) unlisted ??= i;
      else options.push({ index: i, ...listed, ...(listed.option?.value === 'required' && listed.name === word ? next() : {}) });
      continue;
    }
    if (named) {
      options.push({ index: i, name: word, option: named, ...(named.value === 'required' ? next() : {}) });
      continue;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = resolveLong(eq === -1 ? word : word.slice(0, eq), grammar);
      const option = name === undefined ? undefined : grammar.byName.get(name);
      options.push({
        index: i,
        name: name ?? word,
        ...(option ? { option } : {}),
        ...(eq !== -1 ? { value: word.slice(eq + 1) } : option?.value === 'required' ? next() : {}),
      });
      continue;
    }
    const cluster = word.slice(1);
    // The cluster's own index: taking a value from the next word moves `i` on.
    const at = i;
    for (let j = 0; j < cluster.length; j++) {
      const name = `-${cluster[j]!}`;
      const option = grammar.byName.get(name);
      if (!option?.value) {
        options.push({ index: at, name, ...(option ? { option } : {}) });
        continue;
      }
      if (grammar.valuesFromNextWord) {
        options.push({ index: at, name, option, ...(option.value === 'required' ? next() : {}) });
        continue;
      }
      const glued = cluster.slice(j + 1);
      options.push({ index: at, name, option, ...(glued !== '' ? { value: glued } : option.value === 'required' ? next() : {}) });
      break;
    }
  }
  return read(args.length);
}

/** A word in `listed` syntax: a listed flag, a listed valued name (its value next), or a glued value where allowed. */
function readListed(
  word: string,
  grammar: Grammar,
  numericOption: boolean,
  gluedValues: boolean,
): { name: string; option?: OptionSpec; value?: string } | undefined {
  const named = grammar.byName.get(word);
  if (named) return { name: word, option: named };
  if (numericOption && /^-\d+$/.test(word)) return { name: word };
  if (!gluedValues) return undefined;
  const eq = word.indexOf('=');
  const long = eq === -1 ? undefined : grammar.byName.get(word.slice(0, eq));
  if (long?.value && word.startsWith('--')) return { name: word.slice(0, eq), option: long, value: word.slice(eq + 1) };
  const short = grammar.byName.get(word.slice(0, 2));
  if (short?.value && /^-[^-]/.test(word) && word.length > 2) return { name: word.slice(0, 2), option: short, value: word.slice(2) };
  return undefined;
}
