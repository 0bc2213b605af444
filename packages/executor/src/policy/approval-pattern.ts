import type { ToolDeclaration } from '@toolwright/schema';
import type { ApprovalRequest, PathResolver } from '../ports.js';
import { parseRule, subjectMatches, subjectOf, toolMatches, type RulePattern } from './rule-pattern.js';

/**
 * The matcher for `always` approvals scoped to a pattern (`SessionApprovals`), in the policy's rule
 * syntax: approving `file_write(src/**)` covers later writes under src/ and nothing else — as the tool
 * host resolves the path (`resolvePath`), so `src/link` leading elsewhere is not covered. A pattern
 * that does not parse covers nothing.
 */
export function approvalPatternMatcher(): (pattern: string, request: ApprovalRequest, resolvePath?: PathResolver) => boolean {
  const parsed = new Map<string, RulePattern | null>();
  return (pattern, request, resolvePath) => {
    let rule = parsed.get(pattern);
    if (rule === undefined) {
      try {
        rule = parseRule(pattern);
      } catch {
        rule = null;
      }
      parsed.set(pattern, rule);
    }
    if (rule === null || !toolMatches(rule, request.tool)) return false;
    if (rule.pattern === undefined) return true;
    const declaration: ToolDeclaration = request.declaration;
    const subject = subjectOf(rule, declaration, request.args);
    const resolve: PathResolver | undefined = resolvePath && ((argument, value) => resolvePath(argument, value, request.args));
    return subject !== undefined && subjectMatches(rule, subject, declaration, 'allow', resolve);
  };
}
