import type { ToolDeclaration } from '@toolwright/schema';
import type { ApprovalRequest } from '../ports.js';
import { parseRule, subjectMatches, subjectOf, toolMatches, type RulePattern } from './rule-pattern.js';

/**
 * The matcher for `always` approvals scoped to a pattern (`SessionApprovals`), in the policy's rule
 * syntax: approving `file_write(src/**)` covers later writes under src/ and nothing else. A pattern
 * that does not parse covers nothing.
 */
export function approvalPatternMatcher(): (pattern: string, request: ApprovalRequest) => boolean {
  const parsed = new Map<string, RulePattern | null>();
  return (pattern, request) => {
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
    return subject !== undefined && subjectMatches(rule, subject, declaration, 'allow');
  };
}
