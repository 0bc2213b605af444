import type { ToolDeclaration } from '@toolwright/schema';

/**
 * A value already serialised as JSON — a call's canonical arguments, its normalised output. The
 * executor computed that text to hash it; the `AuditLog` splices it into the record instead of
 * serialising the value a second time. Any other sink gets the same JSON from `JSON.stringify`
 * (through `toJSON`) or the value from `.value`.
 */
export class JsonText {
  constructor(readonly json: string) {}

  get value(): unknown {
    return JSON.parse(this.json) as unknown;
  }

  toJSON(): unknown {
    return this.value;
  }
}

/**
 * One audit record as the executor writes it; the log adds `seq` and `time`. `args` and `output`
 * may come as a `JsonText`.
 */
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
