/** One problem with the arguments, located by JSON path (`$.options.depth`). */
export interface ArgumentIssue {
  path: string;
  message: string;
}

/**
 * Where in the pipeline something other than the tool itself failed (see `internal_error`). The stages
 * before `run` never start the tool; from `run` on, the tool ran and only its result was lost.
 */
export type PipelineStage =
  | 'lookup' | 'arguments' | 'hooks' | 'audit' | 'capabilities' | 'doom_loop' | 'policy' | 'risk' | 'approval'
  | 'run' | 'output';

/**
 * Every way a call can fail, as data. The executor *returns* these (it throws only for its own bugs);
 * `formatModelMessage` turns each into the text the model reads. Refusals say who refused:
 * `policy_denied` (a policy rule, or the policy's default when `rule` is absent), `approval_required`
 * (nobody could be asked), `approval_denied` (the person or host asked said no),
 * `protected_path_unapproved` (only blanket approval was available for a protected path).
 */
export type ToolError =
  | { code: 'unknown_tool'; tool: string; suggestions: string[] }
  | { code: 'invalid_json'; message: string; line: number; column: number; position: number }
  | { code: 'invalid_arguments'; issues: ArgumentIssue[] }
  /** No approver could be asked (none configured, or the host said it cannot ask: `message`). */
  | { code: 'approval_required'; reason: string; message?: string }
  | { code: 'approval_denied'; reason: string; message?: string }
  | { code: 'policy_denied'; rule?: string; reason?: string }
  /**
   * The call touches protected paths (`.git/`, `.env`, ...) and no approval that covers them was given:
   * blanket approval (`--yes`, an auto-approving handler, an `always` answer, a broad allow rule) never
   * reaches a protected path; a person must confirm it (`approval: 'blanket'` says one approved without
   * confirming them, `'none'` that nobody could be asked).
   */
  | { code: 'protected_path_unapproved'; paths: string[]; approval: 'blanket' | 'none' }
  | { code: 'capability_denied'; missing: string[] }
  | { code: 'timeout'; timeoutMs: number }
  | { code: 'cancelled'; reason: string }
  /** `errorCode`: the thrown error's own string `code` (`not_found`, `outside_workspace`, `ENOENT`, ...). */
  | { code: 'tool_failed'; message: string; name?: string; errorCode?: string }
  | { code: 'invalid_output'; issues: ArgumentIssue[] }
  /** The output holds more than `maxValues` values or `maxChars` characters of text; `reason` says where. */
  | { code: 'output_too_large'; reason: string; maxValues: number; maxChars: number }
  | { code: 'hook_blocked'; hook: string; reason: string }
  | { code: 'skipped'; reason: string }
  | { code: 'doom_loop'; repeats: number }
  | { code: 'audit_failed'; message: string }
  | { code: 'interrupted'; reason: string }
  /**
   * Something around the tool threw (a risk assessment, a policy, an approval handler, a capability
   * check, ...). `ran` tells whether the tool had started; `errorCode` is the thrown error's string `code`.
   */
  | { code: 'internal_error'; stage: PipelineStage; message: string; ran: boolean; errorCode?: string };

export type ToolErrorCode = ToolError['code'];
