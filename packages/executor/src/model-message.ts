import { describeJsonPath } from './arguments/json-path.js';
import type { ArgumentIssue, PipelineStage, ToolError } from './tool-error.js';
import type { Omission } from './omission.js';

const STAGE_WORDS: Record<PipelineStage, string> = {
  lookup: 'while looking the tool up',
  arguments: 'while reading the arguments',
  hooks: 'in a before-call hook',
  audit: 'while writing the audit log',
  capabilities: 'while checking capabilities',
  doom_loop: 'while checking for repeated calls',
  policy: 'while evaluating the policy',
  risk: "while assessing the call's risk",
  approval: 'while asking for approval',
  run: 'while running the tool',
  output: "while handling the tool's output",
};

/**
 * The one place that words errors for the model. Each message says what was wrong and what to do,
 * so the model can correct itself on the next turn ("Tool execution failed: missing required field
 * 'path' in arguments").
 */
export function formatModelMessage(tool: string, error: ToolError): string {
  switch (error.code) {
    case 'unknown_tool':
      return `Tool execution failed: there is no tool named '${error.tool}'.${error.suggestions.length > 0 ? ` Did you mean ${error.suggestions.map((s) => `'${s}'`).join(' or ')}?` : ''}`;
    case 'tool_not_loaded':
      return `Tool execution failed: '${error.tool}' is not loaded yet, so it cannot be called now. Call '${error.searchTool}' first with what you want to do (or the name '${error.tool}'); the tools it finds can be called from your next turn on.`;
    case 'invalid_json':
      return `Tool execution failed: the arguments of '${tool}' are not valid JSON: ${error.message} at line ${error.line}, column ${error.column}. Send the arguments again as one JSON object.`;
    case 'invalid_arguments': {
      const list = error.issues.map((issue) => describeIssue(issue));
      return list.length === 1
        ? `Tool execution failed: ${list[0]} in arguments. Fix it and call '${tool}' again.`
        : `Tool execution failed: the arguments have ${list.length} problems:\n${list.map((m) => `- ${m}`).join('\n')}\nFix them and call '${tool}' again.`;
    }
    case 'approval_required':
      return `Tool execution refused: '${tool}' needs approval (${error.reason}) and no one could be asked${error.message ? ` (${error.message})` : ''}, so it was not run. Do not retry; tell the user what you wanted to do.`;
    case 'approval_deferred':
      return `Tool execution paused: '${tool}' needs approval, and the question went to the user (${error.message}); it runs once they answer. Do not retry it yourself.`;
    case 'approval_denied':
      return `Tool execution rejected at approval: ${error.message ?? 'the person asked declined the call'}. Do not retry the same call; ask the user how to proceed.`;
    case 'policy_denied':
      return error.rule
        ? `Tool execution denied by policy (rule ${error.rule})${error.reason ? `: ${error.reason}` : ''}. Do not retry the same call.`
        : `Tool execution denied by policy: no rule allows '${tool}' and the policy's default is deny. Do not retry the same call.`;
    case 'protected_path_unapproved':
      return `Tool execution refused: '${tool}' touches the protected path${error.paths.length > 1 ? 's' : ''} ${error.paths.join(', ')}, and ${
        error.approval === 'blanket'
          ? 'the approval given did not confirm it: blanket approval (such as --yes, or approving every call) never covers a protected path'
          : 'no one could be asked to confirm it'
      }. It needs a person's explicit approval, or a policy allow rule naming the path. Do not retry; tell the user what you wanted to change.`;
    case 'escalation_unapproved':
      return `Tool execution refused: this '${tool}' call asks to run outside the sandbox (${error.escalation}), and ${
        error.approval === 'blanket'
          ? 'the approval given did not confirm that: blanket approval (such as --yes, or approving every call) never lets a call run outside the sandbox'
          : 'no one could be asked to confirm that'
      }. Only a person confirming it interactively can allow it; no policy rule or remembered approval does. Do not retry it; do the work inside the sandbox, or tell the user what the command needs from outside it and why.`;
    case 'capability_denied':
      return `Tool execution denied: '${tool}' needs capabilities this session was not granted (${error.missing.join(', ')}).`;
    case 'timeout':
      return `Tool execution failed: '${tool}' did not finish within ${error.timeoutMs} ms and was stopped. Try a smaller request.`;
    case 'cancelled':
      return `Tool execution cancelled: ${error.reason}.`;
    case 'tool_failed':
      return `Tool execution failed: ${error.message}${error.errorCode && !error.message.includes(error.errorCode) ? ` (${error.errorCode})` : ''}`;
    case 'invalid_output':
      return `Tool execution failed: '${tool}' returned a result that does not match its declared output (${error.issues.map((issue) => describeIssue(issue, 'the output')).join('; ')}). This is a bug in the tool, not in your call.`;
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

/**
 * One argument issue as the model reads it: what is wrong, where, and what was expected.
 * @example describeIssue({ path: '$.limit', kind: 'type', expected: ['integer'], received: 'string' })
 *   // "'limit' must be an integer (got a string)"
 */
export function describeIssue(issue: ArgumentIssue, subject?: 'the output'): string {
  const where = subject ? `${subject}${issue.path.slice(1)}` : describeJsonPath(issue.path);
  switch (issue.kind) {
    case 'missing':
      return `missing required field ${where}`;
    case 'unexpected':
      return `unexpected field ${where} (not in the tool's parameters)`;
    case 'type':
      return `${where} must be ${issue.expected.map(article).join(' or ')}${issue.received ? ` (got ${article(issue.received)})` : ''}`;
    case 'enum':
      return `${where} must be one of: ${issue.allowed.map(shown).join(', ')}`;
    case 'const':
      return `${where} must be ${shown(issue.expected)}`;
    case 'no_match':
      return `${where} does not match any of the allowed shapes`;
    case 'constraint':
      return `${where} ${issue.detail}`;
    case 'unsafe_integer':
      return `${where} is ${issue.received}, an integer beyond ±9007199254740991 (2^53 − 1) that cannot be held exactly; send a smaller number, or a string if the digits matter`;
    case 'not_finite':
      return `${where} is ${issue.received}, which is not a finite number; send a finite number`;
    case 'forbidden_key':
      return `${where} uses the key "${issue.key}", which is not allowed`;
    case 'too_deep':
      return `${where} is nested deeper than ${issue.maxDepth} levels`;
    case 'too_large':
      return `${where} holds more than ${issue.limit.toLocaleString('en-US')} characters of keys and values (the limit); send less at once`;
    case 'not_json':
      return `${where} is ${issue.received}, which JSON cannot represent`;
  }
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The note the executor writes where it cut a long output: exactly what is missing, and how to get it.
 * @example "[… lines 181–2,822 of 3,000 omitted (characters 9,421–150,310 of 160,000); the host keeps the full output of call call_1 …]"
 */
export function describeOmission(omitted: Omission): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const chars = `characters ${n(omitted.fromChar)}–${n(omitted.toChar)} of ${n(omitted.totalChars)}`;
  const what =
    omitted.totalLines > 1
      ? `${omitted.wholeLines ? 'lines' : 'parts of lines'} ${n(omitted.fromLine)}–${n(omitted.toLine)} of ${n(omitted.totalLines)} omitted (${chars})`
      : `${chars} omitted`;
  const how =
    omitted.keptAs !== undefined ? `the host keeps the full output of call ${omitted.keptAs}` : 'ask for less at once (a narrower range, a filter) to see them';
  return `[… output cut: ${what}; ${how} …]`;
}
