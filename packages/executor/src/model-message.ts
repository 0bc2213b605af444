import type { PipelineStage, ToolError } from './tool-error.js';

const STAGE_WORDS: Record<PipelineStage, string> = {
  lookup: 'while looking the tool up', arguments: 'while reading the arguments', hooks: 'in a before-call hook',
  audit: 'while writing the audit log', capabilities: 'while checking capabilities', doom_loop: 'while checking for repeated calls',
  policy: 'while evaluating the policy', risk: "while assessing the call's risk", approval: 'while asking for approval',
  run: 'while running the tool', output: "while handling the tool's output",
};

/**
 * The one place that words errors for the model. Each message says what was wrong and what to do,
 * so the model can correct itself on the next turn (seed 000: "Tool execution failed: missing
 * required field 'path' in arguments").
 */
export function formatModelMessage(tool: string, error: ToolError): string {
  switch (error.code) {
    case 'unknown_tool':
      return `Tool execution failed: there is no tool named '${error.tool}'.${error.suggestions.length > 0 ? ` Did you mean ${error.suggestions.map((s) => `'${s}'`).join(' or ')}?` : ''}`;
    case 'invalid_json':
      return `Tool execution failed: the arguments of '${tool}' are not valid JSON: ${error.message} at line ${error.line}, column ${error.column}. Send the arguments again as one JSON object.`;
    case 'invalid_arguments': {
      const list = error.issues.map((issue) => issue.message);
      return list.length === 1
        ? `Tool execution failed: ${list[0]} in arguments. Fix it and call '${tool}' again.`
        : `Tool execution failed: the arguments have ${list.length} problems:\n${list.map((m) => `- ${m}`).join('\n')}\nFix them and call '${tool}' again.`;
    }
    case 'approval_required':
      return `Tool execution refused: '${tool}' needs approval (${error.reason}) and no one could be asked${error.message ? ` (${error.message})` : ''}, so it was not run. Do not retry; tell the user what you wanted to do.`;
    case 'approval_denied':
      return `Tool execution rejected at approval: ${error.message ?? 'the person asked declined the call'}. Do not retry the same call; ask the user how to proceed.`;
    case 'policy_denied':
      return error.rule
        ? `Tool execution denied by policy (rule ${error.rule})${error.reason ? `: ${error.reason}` : ''}. Do not retry the same call.`
        : `Tool execution denied by policy: no rule allows '${tool}' and the policy's default is deny. Do not retry the same call.`;
    case 'protected_path_unapproved':
      return `Tool execution refused: '${tool}' touches the protected path${error.paths.length > 1 ? 's' : ''} ${error.paths.join(', ')}, and ${error.approval === 'blanket'
        ? 'the approval given did not confirm it: blanket approval (such as --yes, or approving every call) never covers a protected path'
        : 'no one could be asked to confirm it'}. It needs a person's explicit approval, or a policy allow rule naming the path. Do not retry; tell the user what you wanted to change.`;
    case 'capability_denied':
      return `Tool execution denied: '${tool}' needs capabilities this session was not granted (${error.missing.join(', ')}).`;
    case 'timeout':
      return `Tool execution failed: '${tool}' did not finish within ${error.timeoutMs} ms and was stopped. Try a smaller request.`;
    case 'cancelled':
      return `Tool execution cancelled: ${error.reason}.`;
    case 'tool_failed':
      return `Tool execution failed: ${error.message}${error.errorCode && !error.message.includes(error.errorCode) ? ` (${error.errorCode})` : ''}`;
    case 'invalid_output':
      return `Tool execution failed: '${tool}' returned a result that does not match its declared output (${error.issues.map((i) => i.message).join('; ')}). This is a bug in the tool, not in your call.`;
    case 'output_too_large':
      return `Tool execution failed: '${tool}' returned a result too large to handle (${error.reason}; a result may hold at most ${error.maxValues.toLocaleString('en-US')} values and ${error.maxChars.toLocaleString('en-US')} characters of text). Ask for less at once (a narrower path, a smaller range, fewer results); if that does not help, the tool is at fault: tell the user.`;
    case 'hook_blocked':
      return `Tool execution blocked: ${error.reason}`;
    case 'skipped':
      return `Tool call skipped: ${error.reason}`;
    case 'doom_loop':
      return `Tool execution stopped: '${tool}' was called ${error.repeats} times in a row with the same arguments and gave the same result. Change the arguments or try a different approach.`;
    case 'audit_failed':
      return `Tool execution refused: the audit log cannot be written (${error.message}), so no side-effecting call may run.`;
    case 'interrupted':
      return `Tool call interrupted: ${error.reason}. It was not run again; ask the user to confirm before retrying.`;
    case 'internal_error':
      return error.ran
        ? `Tool execution failed inside the executor after '${tool}' ran (${STAGE_WORDS[error.stage]}): ${error.message}. The tool's effects may have happened but its result is lost; check before retrying.`
        : `Tool execution failed inside the executor (${STAGE_WORDS[error.stage]}): ${error.message}. '${tool}' was not run; this is not a problem with your call — tell the user if it happens again.`;
  }
}
