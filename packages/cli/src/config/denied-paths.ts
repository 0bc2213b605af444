import picomatch from 'picomatch';
import { parseRule, type PolicyDocument } from '@toolwright/executor';

/**
 * The core tools that read files, each with the argument a rule's pattern is matched against when the
 * rule names none (the tool's subject: its first required string parameter). Only `file_read`'s is
 * its path; `file_search` and `glob` match their search pattern, `file_list` has no subject.
 */
export const READING_TOOL_SUBJECTS: Readonly<Record<string, string | undefined>> = {
  file_read: 'path',
  file_list: undefined,
  file_search: 'pattern',
  glob: 'pattern',
};

/**
 * The paths a policy hides from every tool (`WorkspaceConfig.deniedPaths`): the pattern of each deny
 * rule that denies a reading tool by its `path` — whose tool glob covers `file_read` with the path as
 * its subject (`*(secrets/**)`, `file_*(secrets/**)`, `file_read(secrets/**)`), or a reading tool
 * with `path=` (`file_search(path=secrets/**)`). What such a rule keeps `file_read` from reading, no
 * tool reads: not `file_list`, `glob` or `file_search`, not the shell. A rule without a pattern, on
 * other tools only (`file_write(...)`), on another argument (`file_search(pattern=...)`), or with a
 * pattern in another scope (`shared:/...`) hides nothing, though it still denies the calls it matches.
 * A rule that does not parse is left out here (loading the policy reports it).
 * @example deniedPathsOf({ rules: [{ deny: '*(secrets/**)' }, { deny: 'file_write(build/**)' }] }) // ['secrets/**']
 */
export function deniedPathsOf(document: PolicyDocument | undefined): string[] {
  const patterns: string[] = [];
  for (const source of Array.isArray(document?.rules) ? document.rules : []) {
    const text: unknown = (source as { deny?: unknown } | undefined)?.deny;
    if (typeof text !== 'string') continue;
    let rule;
    try {
      rule = parseRule(text);
    } catch {
      continue;
    }
    if (rule.pattern === undefined) continue;
    const onPath = Object.entries(READING_TOOL_SUBJECTS).some(
      ([tool, subject]) => picomatch.isMatch(tool, rule.tool, { nocase: false }) && (rule.argument ?? subject) === 'path',
    );
    if (!onPath) continue;
    if (/^(?:shared|public):\//.test(rule.pattern)) continue;
    patterns.push(rule.pattern.replace(/^private:\//, ''));
  }
  return [...new Set(patterns)];
}
