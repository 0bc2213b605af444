export { ToolExecutor } from './tool-executor.js';
export { MemoryAuditSink } from './memory-audit-sink.js';
export type { ExecutorOptions, CallContext, BatchOptions, RiskLevelFn, ArgumentDecoder } from './executor-options.js';
export type { OutputCacheOptions } from './cache/output-cache.js';
export { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_MEMORY_CHARS } from './cache/output-cache.js';
export type { ToolCall, ToolCallResult, CompletedToolCall, FailedToolCall, ToolCallStatus } from './tool-call.js';
export type { ToolError, ToolErrorCode, ArgumentIssue, PipelineStage } from './tool-error.js';
export { formatModelMessage, describeIssue } from './model-message.js';
export type { Omission } from './omission.js';
export { escapeTerminalControls, escapeTerminalControlsDeep } from './terminal-safe.js';
export { blockText } from './output/content-blocks.js';
export { approvalCallText, approvalText } from './approval-text.js';
export type { ExecutorEvent, ExecutorEventListener, ToolCallState } from './events.js';
export type { ToolHooks, HookCall, BeforeHookResult, AfterHookResult } from './hooks.js';
export { JsonText } from './ports.js';
export type {
  AuditEntry,
  AuditSink,
  PathResolver,
  PolicyPort,
  PolicyVerdict,
  PolicyEffect,
  RiskMode,
  RiskLevel,
  RiskReport,
  RiskAssessment,
  ApprovalRequest,
  ApprovalAnswer,
  ApprovalHandler,
  AskHandler,
  AskRequest,
  ElicitHandler,
  ElicitRequest,
} from './ports.js';
export type { GatePreview } from './gate-preview.js';
export type { JudgedCall } from './judged-call.js';
export type { CallToJudge } from './judge-call.js';
export { decideGate } from './gate/gate-decision.js';
export type { GateDecision, GateFacts } from './gate/gate-decision.js';
export { SessionApprovals } from './approval-memory.js';
export type { ApprovalMemory } from './approval-memory.js';
export { parseArguments, checkArgumentValue, DEFAULT_PARSE_LIMITS } from './arguments/parse-arguments.js';
export type { ParseLimits, ParseResult } from './arguments/parse-arguments.js';
export { SchemaValidator } from './arguments/schema-validator.js';
export { parametersStandardSchema, returnsStandardSchema } from './standard-schema/tool-standard-schema.js';
export type { ToolStandardSchema } from './standard-schema/tool-standard-schema.js';
export type { ArgumentRepairs, ArgumentRepair } from './arguments/repair-arguments.js';
export { truncateOutput, DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MAX_OUTPUT_BYTES } from './output/truncate-output.js';
export type { Truncation } from './output/truncate-output.js';
export { normaliseOutput, argumentsHash } from './output/normalize-output.js';
export { nearestNames } from './steps/lookup.js';
export { defaultRiskAssessment } from './gate/assess-risk.js';
export { defaultCapabilityCheck } from './steps/capability-check.js';
export { toToolResultMessages, fillDanglingCalls, repairOpenAIChatHistory, repairAnthropicHistory } from './conversation.js';
export type {
  ConversationFormat,
  OpenAIChatToolMessage,
  OpenAIResponsesToolOutput,
  AnthropicToolResultMessage,
  GeminiFunctionResponseContent,
} from './conversation.js';
export { AuditLog, readAuditLog, planRecovery, AuditLogLockedError, AuditWriteError, AuditLogCorruptError } from './audit/index.js';
export { acquireFileLock } from './file-lock.js';
export type { FileLockOptions, LockOwner } from './file-lock.js';
export type { AuditLogOptions, AuditRecord, AuditRotation, Durability, RecoveryAction } from './audit/index.js';
export { Policy, loadPolicy, parseRule, PolicyError } from './policy/index.js';
export { explainDecision, formatExplanation } from './gate/explain.js';
export type { PolicyExplanation, RuleExplanation } from './gate/explain.js';
export type { PolicyDocument, PolicyRuleSource, PolicyExample, PolicyRule, PolicyProof, RulePattern } from './policy/index.js';
export { ApprovalTokens } from './approval-token.js';
export type { ApprovedCall, TokenCheck } from './approval-token.js';
export { toolCallsOf, runToolTurn } from './provider-turns.js';
export { DeferredToolSet, DEFAULT_SEARCH_TOOL } from './deferred-tool-set.js';
export type { DeferredToolSetOptions } from './deferred-tool-set.js';
export type { OfferedTools } from './offered-tools.js';
export type { ProviderTurn, OpenAIChatCompletionLike, OpenAIResponseLike, AnthropicMessageLike, GeminiResponseLike } from './provider-turns.js';
