/**
 * One problem with the arguments (or a tool's output), as data located by JSON path (`$.options.depth`);
 * `formatModelMessage` (through `describeIssue`) words it for the model.
 */
export type ArgumentIssue =
  /** A required field is absent: `path` is the field's own path. */
  | { path: string; kind: 'missing' }
  /** A field the schema does not declare: `path` is the field's own path. */
  | { path: string; kind: 'unexpected' }
  /** `expected`: the JSON types the schema allows; `received`: the JSON type sent (`integer` for whole numbers). */
  | { path: string; kind: 'type'; expected: string[]; received: string }
  | { path: string; kind: 'enum'; allowed: unknown[] }
  | { path: string; kind: 'const'; expected: unknown }
  /** Matches none of the shapes of an `anyOf`/`oneOf`. */
  | { path: string; kind: 'no_match' }
  /**
   * Any other schema keyword (`minimum`, `maxLength`, `pattern`, `format`, ...): its parameters as the
   * validator reports them, and `detail`, the validator's own phrase (`must be >= 1`).
   */
  | { path: string; kind: 'constraint'; keyword: string; params: Record<string, unknown>; detail: string }
  /** An integer beyond ±(2^53 − 1), which a JavaScript number cannot hold exactly; `received` as written. */
  | { path: string; kind: 'unsafe_integer'; received: string }
  /** A number too large to be finite (`1e400`), or NaN/Infinity in a parsed value; `received` as written. */
  | { path: string; kind: 'not_finite'; received: string }
  /** A key refused anywhere (prototype pollution): `__proto__`, or `prototype` under `constructor`. */
  | { path: string; kind: 'forbidden_key'; key: string }
  /** Objects and arrays nested deeper than the executor accepts. */
  | { path: string; kind: 'too_deep'; maxDepth: number }
  /** A parsed value larger than the executor accepts: over `limit` characters of keys and strings (a scalar counts one). */
  | { path: string; kind: 'too_large'; limit: number }
  /** A value JSON cannot carry (`received`: what it is — a function, a bigint, a Date, a cycle, ...). */
  | { path: string; kind: 'not_json'; received: string };

/**
 * Where in the pipeline something other than the tool itself failed (see `internal_error`). The stages
 * before `run` never start the tool; from `run` on, the tool ran and only its result was lost.
 */
export type PipelineStage = 'lookup' | 'arguments' | 'hooks' | 'audit' | 'capabilities' | 'doom_loop' | 'policy' | 'risk' | 'approval' | 'run' | 'output';

/**
 * Every way a call can fail, as data. The executor *returns* these (it throws only for its own bugs);
 * `formatModelMessage` turns each into the text the model reads. Refusals say who refused:
 * `policy_denied` (a policy rule, or the policy's default when `rule` is absent), `approval_required`
 * (nobody could be asked), `approval_denied` (the person or host asked said no),
 * `protected_path_unapproved` (only blanket approval was available for a protected path),
 * `escalation_unapproved` (no person confirmed running the call outside the sandbox).
 */
export type ToolError =
  | { code: 'unknown_tool'; tool: string; suggestions: string[] }
  /** A deferred tool the model was not offered yet (`CallContext.offeredTools`): `searchTool` finds and loads it. */
  | { code: 'tool_not_loaded'; tool: string; searchTool: string }
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
  /**
   * The call asks to run outside the sandbox (`escalation`: why, as the tool worded it) and no person
   * confirmed that: only an approver's answer with `confirmEscalation: true` does — never an allow rule,
   * a remembered `always`, an approval token or a blanket answer (`approval: 'blanket'`, e.g. `--yes`);
   * `'none'`: nobody could be asked.
   */
  | { code: 'escalation_unapproved'; escalation: string; approval: 'blanket' | 'none' }
  /** The approval question went to someone who answers later (`message` says where): the call was not run now. */
  | { code: 'approval_deferred'; message: string }
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
