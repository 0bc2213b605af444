/** One problem with the arguments, located by JSON path (`$.options.depth`). */
export interface ArgumentIssue {
  path: string;
  message: string;
}

/**
 * Every way a call can fail, as data. The executor *returns* these (it throws only for its own bugs);
 * `formatModelMessage` turns each into the text the model reads.
 */
export type ToolError =
  | { code: 'unknown_tool'; tool: string; suggestions: string[] }
  | { code: 'invalid_json'; message: string; line: number; column: number; position: number }
  | { code: 'invalid_arguments'; issues: ArgumentIssue[] }
  | { code: 'approval_required'; reason: string }
  | { code: 'approval_denied'; reason: string; message?: string }
  | { code: 'policy_denied'; rule?: string; reason?: string }
  | { code: 'capability_denied'; missing: string[] }
  | { code: 'timeout'; timeoutMs: number }
  | { code: 'cancelled'; reason: string }
  | { code: 'tool_failed'; message: string; name?: string }
  | { code: 'invalid_output'; issues: ArgumentIssue[] }
  | { code: 'hook_blocked'; hook: string; reason: string }
  | { code: 'skipped'; reason: string }
  | { code: 'doom_loop'; repeats: number }
  | { code: 'audit_failed'; message: string }
  | { code: 'interrupted'; reason: string };

export type ToolErrorCode = ToolError['code'];
