import readline from 'node:readline/promises';
import {
  approvalCallText,
  approvalText,
  ToolExecutor,
  type ApprovalAnswer,
  type ApprovalHandler,
  type ApprovalRequest,
  type ExecutorOptions,
  type ToolCallResult,
} from '@toolwright/executor';
import { escapeTerminalControls } from '@toolwright/executor';
import type { ToolRegistry } from '@toolwright/registry';
import { CliError } from '../cli-error.js';

export interface CallOptions {
  tool: string;
  /** The argument JSON text, or '-' to read it from standard input. */
  args: string;
  workspace?: string;
  /**
   * Approve every call that needs approval, without asking — except a protected path or an escalation
   * (a call that asks to run outside the sandbox): a person confirms those at the terminal.
   */
  yes?: boolean;
  /** Extra executor options (policy, audit, risk mode) assembled by the CLI. */
  executor?: Partial<ExecutorOptions>;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream;
}

/** The JSON `toolwright call` prints: everything a script needs to act on the outcome. */
export interface CallReport {
  status: ToolCallResult['status'];
  tool: string;
  callId: string;
  output?: unknown;
  content: string;
  error?: { code: string; message: string; details: unknown };
  truncated: boolean;
  originalBytes?: number;
  outputHash?: string;
  /** The output came from the output cache (`--cache`): which store answered. */
  cacheHit?: 'disk' | 'memory';
  durationMs: number;
  proof?: unknown;
}

/** `toolwright call`: one call through the full executor, as a model's call would go. */
export async function callTool(registry: ToolRegistry, options: CallOptions): Promise<CallReport> {
  const text = options.args === '-' ? await readAll(options.stdin ?? process.stdin) : options.args;
  const executor = new ToolExecutor({
    registry,
    approve: approvalHandler(options),
    ...options.executor,
  });
  const result = await executor.executeToolCall(
    { id: `cli_${Date.now().toString(36)}`, name: options.tool, arguments: text },
    options.workspace ? { workspace: options.workspace } : {},
  );
  return toReport(result);
}

export function toReport(result: ToolCallResult): CallReport {
  return {
    status: result.status,
    tool: result.tool,
    callId: result.callId,
    ...(result.status === 'completed' ? { output: result.output } : {}),
    content: result.content,
    ...(result.status === 'error' ? { error: { code: result.error.code, message: result.content, details: result.error } } : {}),
    truncated: result.truncated,
    ...(result.status === 'completed' ? { originalBytes: result.originalBytes, outputHash: result.outputHash } : {}),
    ...(result.status === 'completed' && result.cacheHit !== undefined ? { cacheHit: result.cacheHit } : {}),
    durationMs: result.durationMs,
    ...(result.proof !== undefined ? { proof: result.proof } : {}),
  };
}

/**
 * `--yes` approves — except a call touching a protected path (`.git/`, `.env`, ...) or an escalation (a
 * call that asks to run outside the sandbox), which blanket approval never covers: an interactive
 * terminal asks for it, and without one it is refused. Without `--yes` an interactive terminal asks;
 * otherwise nothing can approve and risky calls are refused.
 */
function approvalHandler(options: CallOptions): ApprovalHandler | undefined {
  const stdin = options.stdin ?? process.stdin;
  const ask = stdin.isTTY && options.args !== '-' ? terminalPrompt(stdin, options.stderr ?? process.stderr) : undefined;
  if (!options.yes) return ask;
  return async (request) => ((request.protectedPaths?.length || request.escalation !== undefined) && ask ? ask(request) : { kind: 'once' });
}

/**
 * Asks at the terminal; a yes to a call touching protected paths confirms them, since they were shown.
 * An escalation is named as running outside the sandbox and approved only by typing `escalate`, for
 * this one call.
 */
function terminalPrompt(stdin: NodeJS.ReadableStream, stderr: NodeJS.WritableStream): ApprovalHandler {
  return async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const rl = readline.createInterface({ input: stdin, output: stderr });
    const paths = request.protectedPaths ?? [];
    const { escalation } = request;
    const lines = [`\n${approvalCallText(request.tool, request.args)}`];
    if (escalation !== undefined) lines.push(`RUN OUTSIDE THE SANDBOX: ${approvalText(escalation)}`);
    if (request.reason !== escalation) lines.push(`needs approval: ${approvalText(request.reason)}`);
    if (paths.length > 0) lines.push(`it touches protected path${paths.length > 1 ? 's' : ''}: ${paths.map(approvalText).join(', ')}`);
    lines.push(
      escalation === undefined
        ? 'Allow? [y] once, [a] always this session, [n] no: '
        : 'Type "escalate" to run this one call outside the sandbox, anything else refuses: ',
    );
    try {
      const answer = (await rl.question(escapeTerminalControls(lines.join('\n')))).trim().toLowerCase();
      const confirm = paths.length > 0 ? { confirmProtected: true } : {};
      if (escalation !== undefined) {
        return answer === 'escalate'
          ? { kind: 'once', confirmEscalation: true, ...confirm }
          : { kind: 'reject', message: 'the user did not confirm running it outside the sandbox' };
      }
      if (answer === 'y' || answer === 'yes') return { kind: 'once', ...confirm };
      if (answer === 'a' || answer === 'always') return { kind: 'always', ...confirm };
      return { kind: 'reject', message: 'the user declined at the terminal' };
    } finally {
      rl.close();
    }
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new CliError('--args - read nothing from standard input; pipe the JSON arguments in.', 2);
  return text;
}
