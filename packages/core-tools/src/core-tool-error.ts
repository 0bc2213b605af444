/** Why the workspace refused a path (see `WorkspaceError`). */
export type WorkspaceErrorCode =
  | 'invalid_path'
  | 'outside_workspace'
  | 'symlink_escape'
  | 'special_file'
  | 'protected_path'
  /** Hidden by a policy deny rule (`WorkspaceConfig.deniedPaths`): no tool may use it. */
  | 'path_denied'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'unknown_scope'
  | 'workspace_root'
  | 'changed_during_use'
  | 'already_exists'
  | 'not_empty'
  | 'binary_file'
  | 'too_large'
  | 'invalid_content'
  | 'permission_denied'
  /** A running sandboxed command covers the path and could not be ended before the change (see `endCoveringSandboxes`). */
  | 'busy'
  | 'io_error';

/**
 * Every way a core tool refuses or fails, by a stable code the executor keeps (`tool_failed`'s
 * `errorCode`, the audit record); the message is a sentence for the model that says what to do.
 * Paths refused by the workspace carry a `WorkspaceErrorCode` (`not_found`, `outside_workspace`, ...).
 */
export type CoreToolErrorCode =
  | WorkspaceErrorCode
  /** A pattern (regular expression or glob) that is empty, invalid or matches empty text. */
  | 'invalid_pattern'
  /** A regular expression that backtracks past its time budget. */
  | 'pattern_too_slow'
  /** The call was cancelled (its signal aborted) before the tool finished. */
  | 'cancelled'
  /** `file_edit`: the file changed since it was last read. */
  | 'stale_read'
  /** `file_edit`: the text to replace is not in the file. */
  | 'no_match'
  /** `file_edit`: the text to replace occurs more than once and `replaceAll` is not set. */
  | 'ambiguous_match'
  /** The workspace has no shell, search provider or vault for this tool. */
  | 'not_configured'
  /** `shell_exec`: a command line that is empty, too long, not well-formed text or not parseable. */
  | 'invalid_command'
  /** `shell_exec`: the command analysis or the git guard refused the command. */
  | 'command_refused'
  /** `shell_exec`: the configuration requires the kernel sandbox and it is unavailable here. */
  | 'sandbox_unavailable'
  /**
   * `shell_exec` with `escalate`: no person confirmed this call's escalation (the tool context's
   * `escalationConfirmed`, set only by an executor whose escalation gate asked): nothing ran.
   */
  | 'escalation_unconfirmed'
  /** `shell_job_output`/`shell_job_kill`: no such background job. */
  | 'unknown_job'
  /** `shell_exec`: as many background jobs as allowed are running. */
  | 'too_many_jobs'
  /** `vault_copyto`: not a vault entry name. */
  | 'invalid_name'
  /** `web_fetch`: not an absolute http(s) URL without credentials. */
  | 'invalid_url'
  /** `web_fetch`: the host resolves to an internal address, or the port is not a web port. */
  | 'address_refused'
  /** `web_fetch`: the request failed (unreachable, timed out, too many redirects, unreadable body). */
  | 'fetch_failed'
  /** `web_fetch`: the response is binary, not text. */
  | 'not_text'
  /** `web_fetch`: the page could not be read as Markdown nor as plain text within the time and memory allowed. */
  | 'content_too_complex'
  /** `tool_search`: a query that is blank or too long. */
  | 'invalid_query'
  /** `web_search`: the provider failed or refused. */
  | 'search_failed'
  /** The operator's configuration is invalid (a port or an address in the web allowlists, a shell resource limit). */
  | 'invalid_config';

/** A core tool's refusal or failure: `code` from the catalogue above, the message written for the model. */
export class CoreToolError extends Error {
  constructor(
    readonly code: CoreToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CoreToolError';
  }
}
