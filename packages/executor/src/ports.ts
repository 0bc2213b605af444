import type { ToolDeclaration } from '@toolwright/schema';

/** One audit record as the executor writes it; the log adds `seq` and `time`. */
export interface AuditEntry {
  type: 'ToolCallRequested' | 'CapabilityCheck' | 'PolicyDecision' | 'ApprovalDecision' | 'ToolCallCompleted' | 'ToolCallRejected' | 'ToolCallFailed' | 'ToolCallInterrupted';
  callId: string;
  [field: string]: unknown;
}

/** Where audit records go. `append` resolves when the record is durable per the sink's mode. */
export interface AuditSink {
  append(entry: AuditEntry): Promise<unknown>;
  /** Optional fire-and-forget append for records nothing waits on (cheaper: no promise). */
  record?(entry: AuditEntry): void;
}

export type PolicyEffect = 'allow' | 'ask' | 'deny';

export interface PolicyVerdict {
  effect: PolicyEffect;
  rule?: { text: string; reason?: string; index?: number };
  proof: unknown;
}

/** A loaded policy: decides a call, and says why. */
export interface PolicyPort {
  decide(input: { tool: string; args: Record<string, unknown>; declaration: ToolDeclaration }): PolicyVerdict;
}

export type RiskMode = 'autorun_all' | 'autorun_no_public' | 'autorun_none';
export type RiskLevel = 'safe' | 'risky';

export interface ApprovalRequest {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  argsHash: string;
  reason: string;
  declaration: ToolDeclaration;
}

export type ApprovalAnswer = { kind: 'once' } | { kind: 'always'; pattern?: string } | { kind: 'reject'; message?: string };

/** Asks a person (UI, CLI prompt, MCP elicitation) to approve one call. */
export type ApprovalHandler = (request: ApprovalRequest) => Promise<ApprovalAnswer>;
