import type { ApprovalAnswer, ApprovalRequest, PathResolver } from './ports.js';
import { approvalPatternMatcher } from './policy/approval-pattern.js';

/** Remembers `always` answers for the session and answers matching calls without asking again. */
export interface ApprovalMemory {
  /** `resolvePath`: how the tool host resolves the call's path arguments, for approvals scoped to a path pattern. */
  lookup(request: ApprovalRequest, resolvePath?: PathResolver): boolean;
  remember(request: ApprovalRequest, answer: Extract<ApprovalAnswer, { kind: 'always' }>): void;
}

/**
 * The session's remembered `always` answers. Without a pattern an answer covers the same tool with
 * the same arguments; with a pattern, `matches(pattern, request, resolvePath)` decides (by default the
 * policy engine's rule syntax, e.g. `file_write(src/**)`, matched as an allow rule: every path the tool
 * host resolves the call's path to must be covered).
 */
export class SessionApprovals implements ApprovalMemory {
  private readonly exact = new Set<string>();
  private readonly patterns: string[] = [];

  constructor(private readonly matches: (pattern: string, request: ApprovalRequest, resolvePath?: PathResolver) => boolean = approvalPatternMatcher()) {}

  lookup(request: ApprovalRequest, resolvePath?: PathResolver): boolean {
    return this.exact.has(`${request.tool}\u0000${request.argsHash}`) || this.patterns.some((p) => this.matches(p, request, resolvePath));
  }

  remember(request: ApprovalRequest, answer: Extract<ApprovalAnswer, { kind: 'always' }>): void {
    if (answer.pattern) this.patterns.push(answer.pattern);
    else this.exact.add(`${request.tool}\u0000${request.argsHash}`);
  }
}
