import type { AskQuestions, ElicitAnswer, ElicitSchema } from '@toolwright/tool';
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
  type:
    | 'ToolCallRequested'
    | 'CapabilityCheck'
    | 'PolicyDecision'
    | 'ApprovalDecision'
    | 'ToolCallCompleted'
    | 'ToolCallRejected'
    | 'ToolCallFailed'
    | 'ToolCallInterrupted'
    | 'ToolAsked';
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
  /**
   * The rule that decided; absent when the policy's default did. `pattern` and `argument` (as parsed
   * from the rule) let an allow rule cover a protected path it names (see `ruleNamesProtectedPath`).
   */
  rule?: { text: string; reason?: string; index?: number; pattern?: string; argument?: string };
  proof: PolicyProof;
}
/** The record of a decision, for the audit log and for `toolwright policy explain`. */
export interface PolicyProof {
  decision: PolicyEffect;
  rule?: string;
  ruleIndex?: number;
  reason?: string;
  subject?: { argument: string; value: string };
  /** sha-256 of the policy as loaded, so a proof names the exact rules that made it. */
  policyHash: string;
  evaluatedAt: string;
}

/**
 * The paths a path argument names, as the tool host resolves them (canonical, workspace-relative,
 * `shared:/` or `public:/` for other scopes): `private:/.env`, `/abs/ws/.env` and `sub/../.env` are all
 * `.env`. A link and where it leads are both named; a call that acts on a whole tree (a recursive
 * delete, which `args` shows) names the paths in it. `undefined` when the host refuses the path (the
 * tool reports it). Path rules are matched against these spellings, so no spelling dodges a rule.
 */
export type PathResolver = (argument: string, value: string, args: Readonly<Record<string, unknown>>) => readonly string[] | undefined;

/** A loaded policy: decides a call, and says why. */
export interface PolicyPort {
  /** `resolvePath`, when given, is how the tool host spells the call's path arguments (see `PathResolver`). */
  decide(input: { tool: string; args: Record<string, unknown>; declaration: ToolDeclaration; resolvePath?: PathResolver }): PolicyVerdict;
}

export type RiskMode = 'autorun_all' | 'autorun_no_public' | 'autorun_none';
export type RiskLevel = 'safe' | 'risky';

/**
 * What a tool's risk hook may report about one call besides its level: why, which protected paths
 * (`.git/config`, `.env`, ... as the policy would see them, workspace-relative) it touches, and whether
 * it is an escalation. A call that touches a protected path is never covered by blanket approval.
 */
export interface RiskReport {
  level: RiskLevel;
  reason?: string;
  protectedPaths?: readonly string[];
  /**
   * The call asks to run outside its tool's sandbox (`shell_exec` with `escalate: true`), worded for the
   * person asked: `it runs "npm install" outside the kernel sandbox`. Only a person approves an
   * escalation (`confirmEscalation`): no allow rule, remembered `always`, approval token or blanket answer.
   */
  escalation?: string;
}

/** The risk of one call as the safety gate takes it. */
export interface RiskAssessment {
  level: RiskLevel;
  reason: string;
  /** Protected paths the call touches (non-empty means `level` is `risky`). */
  protectedPaths?: readonly string[];
  /** The call is an escalation, and why (see `RiskReport.escalation`); present means `level` is `risky`. */
  escalation?: string;
}

export interface ApprovalRequest {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  argsHash: string;
  reason: string;
  declaration: ToolDeclaration;
  /**
   * Protected paths this call touches. Show them to the person asked; only an answer with
   * `confirmProtected: true` approves them.
   */
  protectedPaths?: readonly string[];
  /**
   * The call asks to run outside the sandbox, and why. Show it to the person asked as such ("run
   * outside the sandbox"); only an answer with `confirmEscalation: true` approves it, for this call only.
   */
  escalation?: string;
}

/**
 * An approver's answer. `once`/`always` approve; for a call with `protectedPaths` they count only with
 * `confirmProtected: true` (a person saw those paths and approved them), for an `escalation` only with
 * `confirmEscalation: true` (a person saw that it runs outside the sandbox and approved that), so a
 * handler that approves everything blindly can reach neither. An escalation is approved for its one
 * call: `always` is not remembered for it. `reject`: the person (or host) declined. `unavailable`:
 * nobody could be asked (no UI, a client without elicitation) — `message` says why.
 */
export type ApprovalAnswer =
  | { kind: 'once'; confirmProtected?: boolean; confirmEscalation?: boolean }
  | { kind: 'always'; pattern?: string; confirmProtected?: boolean; confirmEscalation?: boolean }
  | { kind: 'reject'; message?: string }
  | { kind: 'unavailable'; message: string }
  /**
   * The question went to someone who answers later (an MCP client that asks its user and calls again with the
   * answer): the call is not run now, and says so — it is neither refused by a person nor unaskable.
   */
  | { kind: 'deferred'; message: string };

/** Asks a person (UI, CLI prompt, MCP elicitation) to approve one call. */
export type ApprovalHandler = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/** A running tool's question for the person behind its call (`getToolContext().elicit`), its form already checked. */
export interface ElicitRequest {
  callId: string;
  tool: string;
  message: string;
  schema: ElicitSchema;
  /** The call's signal: aborted at its deadline or cancellation, when nobody should be waited for any longer. */
  signal: AbortSignal;
}

/** Asks a person a tool's question (MCP elicitation, a UI form); answers `unavailable` where nobody can be asked. */
export type ElicitHandler = (request: ElicitRequest) => Promise<ElicitAnswer<Record<string, unknown>>>;

/** A running tool's questions of one round (`getToolContext().ask`), each already checked, under the tool's keys. */
export interface AskRequest {
  callId: string;
  tool: string;
  questions: AskQuestions;
  /** The call's signal: aborted at its deadline or cancellation, when nobody should be waited for any longer. */
  signal: AbortSignal;
}

/**
 * Asks the client behind a call a tool's questions (MCP: elicitation, sampling, roots). Answers per key as the client
 * gave them — the executor checks each before the tool sees it — or `{ action: 'unavailable', message }` for what
 * could not be asked; a key left out is `unavailable` too.
 */
export type AskHandler = (request: AskRequest) => Promise<Readonly<Record<string, unknown>>>;
