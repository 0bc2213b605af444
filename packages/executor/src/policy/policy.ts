import { createHash } from 'node:crypto';
import type { ToolDeclaration } from '@toolwright/schema';
import type { PathResolver, PolicyEffect, PolicyPort, PolicyProof, PolicyVerdict } from '../ports.js';
import { parseRule, PolicyError, subjectMatches, subjectOf, toolMatches, type RulePattern } from './rule-pattern.js';

/** The policy file: rules in any order, each with an effect and optional examples. */
export interface PolicyDocument {
  /** What applies when no rule matches (default: `ask` for privileged tools, `allow` for the rest). */
  default?: PolicyEffect;
  rules: PolicyRuleSource[];
}

export type PolicyRuleSource = ({ allow: string } | { ask: string } | { deny: string }) & {
  reason?: string;
  /** Calls this rule must match: a subject string, or `{ "tool": ..., "args": {...} }`. */
  match?: (string | PolicyExample)[];
  /** Calls this rule must not match. */
  not_match?: (string | PolicyExample)[];
};

export interface PolicyExample {
  tool?: string;
  args: Record<string, unknown>;
}

export interface PolicyRule extends RulePattern {
  index: number;
  effect: PolicyEffect;
  reason?: string;
}

const ORDER: PolicyEffect[] = ['deny', 'ask', 'allow'];

/** A loaded policy. Rules are evaluated deny → ask → allow, whatever their order in the file. */
export class Policy implements PolicyPort {
  readonly rules: readonly PolicyRule[];
  readonly hash: string;

  constructor(
    readonly document: PolicyDocument,
    private readonly declarations: (tool: string) => ToolDeclaration | undefined = () => undefined,
  ) {
    this.rules = document.rules.map((source, index) => toRule(source, index));
    this.hash = createHash('sha256').update(JSON.stringify(document)).digest('hex');
  }

  /**
   * The first matching rule in deny → ask → allow order, else the default. Path rules match the paths
   * as `resolvePath` (the tool host) resolves them, when given (see `pathSubjectMatches`).
   */
  decide(input: {
    tool: string;
    args: Record<string, unknown>;
    declaration?: ToolDeclaration;
    resolvePath?: PathResolver;
  }): PolicyVerdict & { proof: PolicyProof } {
    const declaration = input.declaration ?? this.declarations(input.tool);
    for (const effect of ORDER) {
      for (const rule of this.rules) {
        if (rule.effect !== effect || !this.matches(rule, input.tool, input.args, declaration, input.resolvePath)) continue;
        const subject = subjectOf(rule, declaration, input.args);
        return {
          effect,
          rule: {
            text: rule.text,
            index: rule.index,
            ...(rule.reason ? { reason: rule.reason } : {}),
            ...(rule.pattern !== undefined ? { pattern: rule.pattern } : {}),
            ...(rule.argument !== undefined ? { argument: rule.argument } : {}),
          },
          proof: this.proof(effect, rule, subject),
        };
      }
    }
    const fallback = this.document.default ?? (declaration?.metadata.tier === 'privileged' ? 'ask' : 'allow');
    return { effect: fallback, proof: this.proof(fallback) };
  }

  matches(rule: PolicyRule, tool: string, args: Record<string, unknown>, declaration: ToolDeclaration | undefined, resolvePath?: PathResolver): boolean {
    if (!toolMatches(rule, tool)) return false;
    if (rule.pattern === undefined) return true;
    const subject = subjectOf(rule, declaration, args);
    return (
      subject !== undefined && subjectMatches(rule, subject, declaration, rule.effect, resolvePath && ((argument, value) => resolvePath(argument, value, args)))
    );
  }

  private proof(decision: PolicyEffect, rule?: PolicyRule, subject?: { name: string; value: string }): PolicyProof {
    return {
      decision,
      ...(rule ? { rule: rule.text, ruleIndex: rule.index } : {}),
      ...(rule?.reason ? { reason: rule.reason } : {}),
      ...(subject ? { subject: { argument: subject.name, value: subject.value } } : {}),
      policyHash: this.hash,
      evaluatedAt: new Date().toISOString(),
    };
  }
}

/**
 * Loads a policy from JSON text or an object and checks it: every rule must parse, and every `match`
 * example must be matched by its rule and every `not_match` must not — otherwise a PolicyError lists
 * each failing example, so policy authors test their rules as they write them.
 */
export function loadPolicy(source: string | PolicyDocument, declarations?: (tool: string) => ToolDeclaration | undefined): Policy {
  let document: PolicyDocument;
  try {
    document = typeof source === 'string' ? (JSON.parse(source) as PolicyDocument) : source;
  } catch (error) {
    throw new PolicyError(`the policy is not valid JSON: ${(error as Error).message}`);
  }
  if (!document || !Array.isArray(document.rules)) throw new PolicyError('a policy is an object with a "rules" array');
  if (document.default !== undefined && !ORDER.includes(document.default))
    throw new PolicyError(`"default" must be allow, ask or deny, not "${String(document.default)}"`);
  const policy = new Policy(document, declarations);
  const failures: string[] = [];
  policy.rules.forEach((rule, index) => {
    const source = document.rules[index]!;
    const check = (example: string | PolicyExample, expected: boolean) => {
      const { tool, args } = exampleCall(rule, example, declarations);
      const matched = policy.matches(rule, tool, args, declarations?.(tool));
      if (matched !== expected)
        failures.push(
          `rule ${index + 1} (${rule.effect} ${rule.text}) ${expected ? 'does not match its example' : 'matches its counter-example'} ${JSON.stringify(example)}`,
        );
    };
    for (const example of source.match ?? []) check(example, true);
    for (const example of source.not_match ?? []) check(example, false);
  });
  if (failures.length > 0) throw new PolicyError(`the policy's examples fail:\n  - ${failures.join('\n  - ')}`);
  return policy;
}

function toRule(source: PolicyRuleSource, index: number): PolicyRule {
  const effects = ORDER.filter((effect) => effect in source);
  if (effects.length !== 1) throw new PolicyError(`rule ${index + 1} must have exactly one of "allow", "ask" or "deny"`);
  const effect = effects[0]!;
  const text = (source as Record<string, unknown>)[effect];
  if (typeof text !== 'string') throw new PolicyError(`rule ${index + 1}: "${effect}" must be a rule string such as "shell_exec(npm test *)"`);
  try {
    return { ...parseRule(text), index, effect, ...(source.reason ? { reason: source.reason } : {}) };
  } catch (error) {
    if (error instanceof PolicyError) throw new PolicyError(`rule ${index + 1}: ${error.message}`);
    throw error;
  }
}

/** A string example is the rule's subject; the tool is the rule's own name when it has no wildcards. */
function exampleCall(
  rule: PolicyRule,
  example: string | PolicyExample,
  declarations?: (tool: string) => ToolDeclaration | undefined,
): { tool: string; args: Record<string, unknown> } {
  if (typeof example !== 'string') return { tool: example.tool ?? rule.tool, args: example.args };
  const tool = rule.tool;
  const declaration = declarations?.(tool);
  const name =
    rule.argument ?? (declaration ? declaration.parameterOrder.find((p) => declaration.parameters.required.includes(p)) : undefined) ?? guessSubject(tool);
  return { tool, args: { [name]: example } };
}

function guessSubject(tool: string): string {
  if (/shell|exec|command|run/.test(tool)) return 'command';
  if (/fetch|url|http|web/.test(tool)) return 'url';
  return 'path';
}
