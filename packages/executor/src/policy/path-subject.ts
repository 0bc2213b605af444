import path from 'node:path';
import picomatch from 'picomatch';
import type { ToolDeclaration } from '@toolwright/schema';
import { isPathParameter } from '../call-resources.js';
import type { PathResolver } from '../ports.js';

const SCOPE_PREFIX = /^(?:private|shared|public):\//;

/**
 * Whether a path rule's pattern matches a path argument, however the path is spelled. The candidates
 * are the spellings the tool host resolves the value to (`resolvePath`: canonical, workspace-relative,
 * through links) and the value's lexical normal form (`private:/` dropped, `./`, `//` and `..` folded).
 * - A `deny` or `ask` rule matches when **any** candidate matches, ignoring case (a case-insensitive
 *   file system opens `.ENV` as `.env`): no spelling, link or case variant dodges it.
 * - An `allow` rule matches only when **every** spelling the host resolved matches, with case (the
 *   lexical form alone when there is no host): `src/link` leading to `.env` is not under `src/**`.
 * A value that climbs out of its root lexically and that the host does not resolve matches nothing: the
 * tool refuses it.
 * @example pathSubjectMatches('.env', { name: 'path', value: 'private:/sub/../.env' }, 'deny') // true
 */
export function pathSubjectMatches(
  pattern: string,
  subject: { name: string; value: string },
  effect: 'allow' | 'ask' | 'deny',
  resolvePath?: PathResolver,
): boolean {
  const glob = normalisePathPattern(pattern);
  const resolved = resolvedSpellings(subject, resolvePath);
  const matches = matcher(glob, effect !== 'allow');
  const lexical = lexicalSpelling(subject.value);
  if (effect === 'allow') {
    const candidates = resolved ?? (lexical !== undefined ? [lexical] : []);
    return candidates.length > 0 && candidates.every(matches);
  }
  const candidates = [...(resolved ?? []), ...(lexical !== undefined ? [lexical] : [])];
  return candidates.some(matches);
}

const matchers = new Map<string, (candidate: string) => boolean>();

/** Compiled once per pattern: a tree's spellings may number thousands. */
function matcher(glob: string, nocase: boolean): (candidate: string) => boolean {
  const key = `${nocase ? 'i' : 's'}\u0000${glob}`;
  let match = matchers.get(key);
  if (!match) {
    const compiled = picomatch(glob, { dot: true, nocase });
    match = (candidate) => compiled(candidate); // one argument: a second asks picomatch for a result object
    if (matchers.size > 1_000) matchers.clear();
    matchers.set(key, match);
  }
  return match;
}

/** A path's lexical normal form: `private:/` dropped (it is the default scope), other scopes kept; undefined when it climbs out. */
export function lexicalSpelling(value: string): string | undefined {
  const scoped = SCOPE_PREFIX.exec(value);
  const rest = scoped ? value.slice(scoped[0].length) : value;
  const normalised = path.posix
    .normalize(rest.replace(/\\/g, '/'))
    .replace(/^(?:\.\/)+/, '')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '');
  if (normalised === '..' || normalised.startsWith('../')) return undefined;
  const relative = normalised === '' ? '.' : normalised;
  return scoped && scoped[0] !== 'private:/' ? `${scoped[0]}${relative}` : relative;
}

/** A rule's path pattern in the same form: `private:/`, leading `./` and `/` dropped. */
export function normalisePathPattern(pattern: string): string {
  let rest = pattern.startsWith('private:/') ? pattern.slice('private:/'.length) : pattern;
  for (let previous = ''; previous !== rest;) {
    previous = rest;
    rest = rest.replace(/^\/+/, '').replace(/^\.\/+/, '');
  }
  return rest === '' ? '.' : rest;
}

/** The host's spellings, read defensively: an answer that is not a list of paths resolves nothing (a resolver that throws fails the call closed). */
function resolvedSpellings(subject: { name: string; value: string }, resolvePath: PathResolver | undefined): readonly string[] | undefined {
  if (!resolvePath) return undefined;
  const answer = resolvePath(subject.name, subject.value, {});
  if (!Array.isArray(answer)) return undefined;
  const spellings = answer.filter((s): s is string => typeof s === 'string' && s !== '');
  return spellings.length > 0 ? spellings : undefined;
}

/**
 * A tool host's resolver as one call uses it: asked only about the tool's path parameters (by name or
 * `format: "path"`), once per argument value, however many rules look at it.
 */
export function bindPathResolver(
  resolver: PathResolver | undefined,
  declaration: ToolDeclaration,
  args: Readonly<Record<string, unknown>>,
): PathResolver | undefined {
  if (!resolver) return undefined;
  const answers = new Map<string, readonly string[] | undefined>();
  return (argument, value) => {
    if (!isPathParameter(declaration, argument)) return undefined;
    const key = `${argument}\u0000${value}`;
    if (!answers.has(key)) answers.set(key, resolver(argument, value, args));
    return answers.get(key);
  };
}
