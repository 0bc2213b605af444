import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { approvalCallText, approvalText, escapeTerminalControls, type ApprovalAnswer, type ApprovalRequest } from '@toolwright/executor';

/** What an approval asks: a decision (`once`/`always`/`reject`), or the confirmation of a run outside the sandbox. */
export type QuestionKind = 'decision' | 'escalation';

/** The form field whose `true` is a person's confirmation that the call runs outside the sandbox. */
const CONFIRM_FIELD = 'run_outside_sandbox';

/** The question for an ordinary approval: once, always (this tool with these arguments, for the session), or reject. */
export function decisionForm(request: ApprovalRequest, warning: string): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: `Allow ${approvalCallText(request.tool, request.args)}? It needs approval: ${approvalText(request.reason)}.${warning}`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          enum: ['once', 'always', 'reject'],
          description: 'once: this call; always: this tool with these arguments for the session; reject: refuse',
        },
      },
      required: ['decision'],
    },
  };
}

/**
 * The question for an escalation: it is named as running outside the sandbox, and only an accepted form with
 * `run_outside_sandbox: true` (a required field, no default, so a client that fills a form in blindly leaves it out)
 * approves it — for this one call.
 */
export function escalationForm(request: ApprovalRequest, warning: string): ElicitRequestFormParams {
  const reason = request.reason !== request.escalation ? ` It needs approval: ${request.reason}.` : '';
  return {
    mode: 'form',
    message: escapeTerminalControls(
      `Run ${approvalCallText(request.tool, request.args)} OUTSIDE THE SANDBOX? ${approvalText(request.escalation ?? '')}.${reason}${warning} Only you can approve this, for this one call: confirm it explicitly.`,
    ),
    requestedSchema: {
      type: 'object',
      properties: {
        [CONFIRM_FIELD]: {
          type: 'boolean',
          title: 'Run outside the sandbox',
          description: 'true: run this one call outside the sandbox; false: refuse it',
        },
      },
      required: [CONFIRM_FIELD],
    },
  };
}

/** What the person's answer to a question means (an accepted form that does not say yes is a rejection). */
export function answerOf(kind: QuestionKind, action: string, content: unknown): ApprovalAnswer {
  const fields = action === 'accept' && typeof content === 'object' && content !== null ? (content as Record<string, unknown>) : undefined;
  const said = action === 'decline' ? 'declined' : 'cancelled';
  if (kind === 'escalation') {
    if (fields?.[CONFIRM_FIELD] === true) return { kind: 'once', confirmEscalation: true };
    return { kind: 'reject', message: fields ? 'the user did not confirm running it outside the sandbox' : `the user ${said} the approval request` };
  }
  const decision = fields?.decision;
  if (decision === 'once' || decision === 'always') return { kind: decision };
  return { kind: 'reject', message: fields ? 'the user rejected the call' : `the user ${said} the approval request` };
}

/** The user saw the protected paths in the question: an accepted answer confirms them. */
export function confirmPaths(answer: ApprovalAnswer, kind: QuestionKind, protectedPaths: readonly string[]): ApprovalAnswer {
  if (answer.kind !== 'once' && answer.kind !== 'always') return answer;
  // An escalation is approved for this one call, whatever the form said.
  const approved: ApprovalAnswer = kind === 'escalation' ? { kind: 'once', confirmEscalation: true } : { ...answer };
  return protectedPaths.length > 0 ? { ...approved, confirmProtected: true } : approved;
}

/** The question an approval request asks, with the protected paths it touches named. */
export function approvalForm(request: ApprovalRequest): { form: ElicitRequestFormParams; kind: QuestionKind } {
  const protectedPaths = request.protectedPaths ?? [];
  const warning =
    protectedPaths.length > 0 ? ` It changes the protected path${protectedPaths.length > 1 ? 's' : ''} ${protectedPaths.map(approvalText).join(', ')}.` : '';
  const kind: QuestionKind = request.escalation !== undefined ? 'escalation' : 'decision';
  return { form: kind === 'escalation' ? escalationForm(request, warning) : decisionForm(request, warning), kind };
}
