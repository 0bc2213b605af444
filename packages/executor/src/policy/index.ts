export { Policy, loadPolicy } from './policy.js';
export type { PolicyDocument, PolicyRuleSource, PolicyExample, PolicyRule } from './policy.js';
export type { PolicyProof } from '../ports.js';
export { parseRule, subjectOf, subjectMatches, toolMatches, isCommandParameter, PolicyError } from './rule-pattern.js';
export type { RulePattern } from './rule-pattern.js';
export { approvalPatternMatcher } from './approval-pattern.js';
export { ruleNamesProtectedPath } from './names-protected-path.js';
