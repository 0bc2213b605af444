import picomatch from 'picomatch';
import type { ToolDeclaration } from '@toolwright/schema';
import { isPathParameter } from '../call-resources.js';
import type { PathResolver } from '../ports.js';
import { pathSubjectMatches } from './path-subject.js';

/** A syntax error in a policy rule, with the column it was found at. */
export class PolicyError extends Error {
  constructor(
    message: string,
    readonly rule?: string,
    readonly column?: number,
  ) {
    super(rule !== undefined ? `${message}\n  in rule: ${rule}${column !== undefined ? `\n           ${' '.repeat(column)}^` : ''}` : message);
    this.name = 'PolicyError';
  }
}

/**
 * A parsed rule: `tool_glob`, `tool_glob(pattern)` or `tool_glob(argument=pattern)`.
 * @example shell_exec(npm test *)     file_write(src/**)     web_fetch(url=https://docs.*)     file_*
 */
export interface RulePattern {
  text: string;
  /** Glob over wire names (`file_*`). */
  tool: string;
  /** The argument the pattern applies to; undefined = the tool's subject (see `subjectOf`). */
  argument?: string;
  /** The argument pattern; undefined = any call of the tool. */
  pattern?: string;
}

export function parseRule(text: string): RulePattern {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  if (open === -1) {
    if (!/^[A-Za-z0-9_*?{},\-[\]!]+$/.test(trimmed))
      throw new PolicyError('a tool pattern may contain letters, digits, _, - and the glob characters * ? {} [] !', text, 0);
    return { text: trimmed, tool: trimmed };
  }
  if (!trimmed.endsWith(')')) throw new PolicyError("the argument pattern must end with ')'", text, trimmed.length);
  const tool = trimmed.slice(0, open).trim();
  if (tool === '') throw new PolicyError('the rule names no tool before "("', text, 0);
  const inner = trimmed.slice(open + 1, -1);
  const named = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(inner);
  return { text: trimmed, tool, ...(named ? { argument: named[1]!, pattern: named[2]! } : { pattern: inner }) };
}

/**
 * The value a rule's pattern is matched against: the named argument, else the tool's first required
 * string parameter (its subject: `command` of shell_exec, `path` of file_write, `url` of web_fetch).
 */
export function subjectOf(
  rule: RulePattern,
  declaration: ToolDeclaration | undefined,
  args: Record<string, unknown>,
): { name: string; value: string } | undefined {
  const name =
    rule.argument ??
    (declaration
      ? declaration.parameterOrder.find((p) => declaration.parameters.required.includes(p) && declaration.parameters.properties[p]?.type === 'string')
      : undefined);
  if (!name) return undefined;
  const value = args[name];
  return typeof value === 'string' ? { name, value } : undefined;
}

export function toolMatches(rule: RulePattern, tool: string): boolean {
  return picomatch.isMatch(tool, rule.tool, { nocase: false });
}

/**
 * Matches a subject. Paths (parameters named path, file, dir, ... or `format: "path"`) use glob
 * semantics (`*` within a segment, `**` across, dotfiles included) over the path as the tool host
 * resolves it (`resolvePath`) and its lexical normal form, so `src/../etc/passwd` never matches
 * `src/**` and `private:/.env`, `./.env` or `/abs/ws/.env` are all `.env` (see `pathSubjectMatches`).
 * Everything else uses wildcards: `*` is any run of characters (spaces and slashes included), `?` one
 * character, the rest literal.
 */
export function subjectMatches(
  rule: RulePattern,
  subject: { name: string; value: string },
  declaration: ToolDeclaration | undefined,
  effect: 'allow' | 'ask' | 'deny' = 'deny',
  resolvePath?: PathResolver,
): boolean {
  if (rule.pattern === undefined) return true;
  if (effect !== 'deny' && isCommandParameter(subject.name)) {
    // An allow (or ask) rule over a command never stretches across a shell operator: `npm test *`
    // must not allow `npm test; rm -rf ~`. Deny rules keep the broad wildcard.
    return commandWildcard(rule.pattern).test(subject.value);
  }
  const pathLike = declaration ? isPathParameter(declaration, subject.name) : ['path', 'file', 'dir'].includes(subject.name);
  if (pathLike) return pathSubjectMatches(rule.pattern, subject, effect, resolvePath);
  return wildcard(rule.pattern).test(subject.value);
}

const COMMAND_PARAMETERS = new Set(['command', 'cmd', 'script', 'commandLine']);

/** Whether a parameter holds a shell command line. */
export function isCommandParameter(name: string): boolean {
  return COMMAND_PARAMETERS.has(name);
}

const wildcardCache = new Map<string, RegExp>();

function wildcard(pattern: string): RegExp {
  return compileWildcard(pattern, '.*', '.');
}

/** `*` and `?` stop at shell operators, substitutions, redirections and newlines. */
function commandWildcard(pattern: string): RegExp {
  return compileWildcard(pattern, '[^;&|`$()<>\\n\\r]*', '[^;&|`$()<>\\n\\r]');
}

function compileWildcard(pattern: string, star: string, one: string): RegExp {
  const key = `${star}\u0000${pattern}`;
  let regex = wildcardCache.get(key);
  if (!regex) {
    const body = pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, star)
      .replace(/\?/g, one);
    regex = new RegExp(`^${body}$`, 's');
    wildcardCache.set(key, regex);
  }
  return regex;
}
