import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import {
  approvalCallText,
  approvalText,
  escapeTerminalControls,
  escapeTerminalControlsDeep,
  ToolExecutor,
  type ApprovalAnswer,
  type ApprovalRequest,
  type ExecutorOptions,
} from '@toolwright/executor';
import { structuredContentOf, toMcpTools, type ToolRegistry } from '@toolwright/registry';
import { ClientApprovals } from './client-approvals.js';

/**
 * The protocol era a server speaks: `legacy` is 2025-11-25 and before (`initialize`, sessions), `modern` is 2026-07-28
 * (stateless: `server/discover`, capabilities in each request's `_meta`, `input_required` results).
 */
export type ProtocolEra = 'legacy' | 'modern';

export interface McpToolServerOptions {
  registry: ToolRegistry;
  /** The executor's options (policy, audit, risk mode, ...); approvals are asked through MCP. */
  executor?: Omit<ExecutorOptions, 'registry' | 'approve'>;
  name?: string;
  version?: string;
}

/** How the clients of one protocol server are told apart. */
export interface CreateServerOptions {
  /**
   * Whose calls the repeated-call guard compares (see the executor's `CallContext.repeatScope`): by default the
   * connection's (stdio: one client), a session's when there is one; `false` where requests of many clients share
   * one server (stateless HTTP without a token), a name where they share an identity (one bearer token).
   */
  repeatScope?: string | false;
  /** The era the server speaks (default `legacy`): how it asks the client's user (elicitation or `input_required`). */
  era?: ProtocolEra;
  /**
   * Whether the server's connection is one client's (default true: stdio, an in-process transport), whose `always`
   * approvals are remembered for it; false where a server answers one request of any client (stateless HTTP).
   */
  oneClient?: boolean;
}

interface ActiveCall {
  server: Server;
  era: ProtocolEra;
  ctx: ServerContext;
  /** The client the call comes from (its session or connection), when one can be told apart; its approvals are its own. */
  client: string | undefined;
  /** The call's name and arguments, hashed: what an answer carried by `requestState` must have been asked for. */
  fingerprint: string;
  /** The last progress value sent (none yet: -Infinity). */
  progress: number;
  /** Aborted when the connection the call came in on closes (stateless HTTP has no other cancel path). */
  closed: AbortController;
  /** 2026-07-28: the person's answer to a question of `kind`, carried by the client's retry of an `input_required` result. */
  answered?: { answer: ApprovalAnswer; kind: QuestionKind };
  /** 2026-07-28: the question this call left for the client to ask (the result becomes `input_required`). */
  pending?: { form: ElicitRequestFormParams; kind: QuestionKind };
}

/** What an approval asks: a decision (`once`/`always`/`reject`), or the confirmation of a run outside the sandbox. */
type QuestionKind = 'decision' | 'escalation';

/** What `requestState` carries between the rounds of an `input_required` call (sealed with an HMAC). */
interface ApprovalState {
  fingerprint: string;
  kind: QuestionKind;
}

/** The key of the one input request an approval makes. */
const APPROVAL_INPUT = 'approval';

/**
 * Serves a registry over MCP with every call going through one executor, so policy, approval,
 * truncation and audit apply exactly as in process. `tools/list` comes from the declarations;
 * `tools/call` answers failures as `isError` results carrying the correction text, returns object
 * results as `structuredContent`, reports tool progress as progress notifications, turns the
 * client's cancellation into the call's AbortSignal, and asks for approvals by elicitation when the
 * client supports it (and refuses, saying why, when it does not). Every text it sends (results,
 * structured content, errors, progress messages, approval prompts, tool descriptions) has terminal
 * control and bidi characters escaped: a tool's output never drives the client's terminal.
 */
export class McpToolServer {
  readonly executor: ToolExecutor;
  readonly registry: ToolRegistry;
  private readonly active = new Map<string, ActiveCall>();
  private readonly live = new Set<Server>();
  private readonly sessionListeners = new Set<(sessionId: string) => void>();
  private readonly info: { name: string; version: string };
  /** `always` answers, per client (unless the executor's options bring their own memory). */
  private readonly approvals = new ClientApprovals((callId) => this.active.get(callId)?.client);
  /**
   * Seals what an `input_required` result leaves with the client (2026-07-28): the client echoes it untouched or the
   * retry is refused. The key is this process's: a retry reaching another process is asked again.
   */
  private readonly states: RequestStateCodec<ApprovalState> = createRequestStateCodec<ApprovalState>({ key: randomBytes(32) });

  constructor(options: McpToolServerOptions) {
    this.registry = options.registry;
    this.info = { name: options.name ?? 'toolwright', version: options.version ?? '0.1.0' };
    this.executor = new ToolExecutor({
      approvals: this.approvals,
      ...options.executor,
      registry: options.registry,
      approve: (request) => this.askApproval(request),
    });
    this.executor.on((event) => {
      if (event.type !== 'tool_call_update') return;
      const call = this.active.get(event.callId);
      const token = call?.ctx.mcpReq._meta?.progressToken;
      if (!call || token === undefined) return;
      call.progress = nextProgress(call.progress, event.progress.progress);
      void call.ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: call.progress,
            ...(event.progress.total !== undefined ? { total: event.progress.total } : {}),
            ...(event.progress.message ? { message: escapeTerminalControls(event.progress.message) } : {}),
          },
        })
        .catch(() => undefined);
    });
    this.registry.onChange(() => {
      for (const server of this.live) void server.sendToolListChanged().catch(() => undefined);
    });
  }

  /** A protocol server bound to this registry and executor; connect it to a transport (or hand it to a serving entry). */
  createServer(options: CreateServerOptions = {}): Server {
    const repeatScope = options.repeatScope ?? `connection-${randomBytes(9).toString('base64url')}`;
    const era = options.era ?? 'legacy';
    const connection = options.oneClient === false ? undefined : `connection-${randomBytes(9).toString('base64url')}`;
    const server = new Server(this.info, {
      capabilities: { tools: { listChanged: true } },
      // A retry's echoed state is checked before the handler sees it; a forged or expired one is refused (-32602).
      requestState: { verify: (state, ctx) => this.states.verify(state, ctx) },
    });
    // The schemas are JSON Schema objects; the SDK types their properties as JSON values.
    server.setRequestHandler('tools/list', async () => ({ tools: toMcpTools(this.registry.list()).map(safeListing) as unknown as Tool[] }));
    server.setRequestHandler('tools/call', (request, ctx) =>
      this.callTool({ server, era, ctx, client: ctx.sessionId ?? connection }, repeatScope, request.params.name, request.params.arguments).catch(
        (error: unknown) => failure(`Tool execution failed: ${error instanceof Error ? error.message : String(error)}`),
      ),
    );
    this.live.add(server);
    server.onclose = () => {
      this.live.delete(server);
      if (connection) this.approvals.forget(connection);
      for (const call of this.active.values()) if (call.server === server) call.closed.abort(new Error('the client connection closed'));
    };
    return server;
  }

  /**
   * Subscribes to the end of MCP sessions (HTTP with sessions: closed by the client, idle, evicted,
   * or at shutdown), e.g. to drop per-session state; returns the unsubscribe function.
   */
  onSessionClosed(listener: (sessionId: string) => void): () => void {
    this.sessionListeners.add(listener);
    return () => this.sessionListeners.delete(listener);
  }

  /** Called by the transport that owned the session when it closes. */
  sessionClosed(sessionId: string): void {
    this.approvals.forget(sessionId);
    for (const listener of this.sessionListeners) listener(sessionId);
  }

  private async callTool(
    on: { server: Server; era: ProtocolEra; ctx: ServerContext; client: string | undefined },
    repeatScope: string | false,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
    const callId = `mcp_${randomBytes(9).toString('base64url')}`;
    const closed = new AbortController();
    const fingerprint = fingerprintOf(name, args ?? {});
    const call: ActiveCall = { ...on, fingerprint, progress: -Infinity, closed };
    const answered = on.era === 'modern' ? answerCarried(on.ctx, fingerprint) : undefined;
    if (answered) call.answered = answered;
    this.active.set(callId, call);
    try {
      const result = await this.executor.executeToolCall(
        { id: callId, name, arguments: args ?? {} },
        {
          signal: AbortSignal.any([on.ctx.mcpReq.signal, closed.signal]),
          // A session is its client; without one, the connection's (or no) identity.
          ...(on.ctx.sessionId !== undefined ? { sessionId: on.ctx.sessionId } : { repeatScope }),
        },
      );
      // 2026-07-28: the approval is asked by the client, which calls again with the answer (and the sealed state).
      if (call.pending) {
        const requestState = await this.states.mint({ fingerprint, kind: call.pending.kind }, on.ctx);
        return inputRequired({ inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit(call.pending.form) }, requestState });
      }
      if (result.status !== 'completed') return failure(result.content);
      const declaration = this.registry.get(name)?.declaration;
      const content = declaration ? structuredContentOf(declaration, result.output) : undefined;
      const structured = content ? { structuredContent: escapeTerminalControlsDeep(content) as Record<string, unknown> } : {};
      return { content: [{ type: 'text', text: escapeTerminalControls(result.content) }], ...structured };
    } finally {
      this.active.delete(callId);
    }
  }

  /**
   * Asks the client's user. On 2025-11-25 by elicitation, on 2026-07-28 by an `input_required` result the client
   * answers by calling again. Where nobody can be asked (stateless HTTP in the 2025 era, a client without
   * elicitation, a failed request) the answer is `unavailable`, never a person's `reject`; a protected path is named
   * in the question, and an accepted answer confirms it. An escalation is asked as running outside the sandbox
   * (see `escalationForm`).
   */
  private async askApproval(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const call = this.active.get(request.callId);
    if (!call) return { kind: 'unavailable', message: 'no MCP request is waiting for this approval' };
    const capabilities = call.era === 'modern' ? envelopeCapabilities(call.ctx) : call.server.getClientCapabilities();
    if (!capabilities) {
      return {
        kind: 'unavailable',
        message:
          "this server runs stateless over HTTP, so it cannot ask the client's user for approval; allow the call in the server's policy, or serve with sessions (toolwright serve --mcp http --sessions)",
      };
    }
    if (!capabilities.elicitation) {
      return {
        kind: 'unavailable',
        message: "the MCP client cannot ask its user for approval (it does not support elicitation); allow the call in the server's policy instead",
      };
    }
    const protectedPaths = request.protectedPaths ?? [];
    const warning =
      protectedPaths.length > 0 ? ` It changes the protected path${protectedPaths.length > 1 ? 's' : ''} ${protectedPaths.map(approvalText).join(', ')}.` : '';
    const kind: QuestionKind = request.escalation !== undefined ? 'escalation' : 'decision';
    const form = kind === 'escalation' ? escalationForm(request, warning) : decisionForm(request, warning);
    if (call.era === 'modern') {
      // The retry carries the person's answer to this very question about this very call: taken once.
      const answered = call.answered;
      call.answered = undefined;
      // Only an answer to the same kind of question: a plain "once" never confirms a run outside the sandbox.
      if (answered?.kind === kind) return confirmPaths(answered.answer, kind, protectedPaths);
      call.pending = { form, kind };
      return { kind: 'unavailable', message: "the question was handed to the MCP client (input_required); it calls again with the user's answer" };
    }
    try {
      const answer = await call.server.elicitInput(form, { signal: call.ctx.mcpReq.signal });
      return confirmPaths(answerOf(kind, answer.action, answer.content), kind, protectedPaths);
    } catch (error) {
      return { kind: 'unavailable', message: `the approval request failed: ${(error as Error).message}` };
    }
  }
}

/** The form field whose `true` is a person's confirmation that the call runs outside the sandbox. */
const CONFIRM_FIELD = 'run_outside_sandbox';

/** The question for an ordinary approval: once, always (this tool with these arguments, for the session), or reject. */
function decisionForm(request: ApprovalRequest, warning: string): ElicitRequestFormParams {
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
function escalationForm(request: ApprovalRequest, warning: string): ElicitRequestFormParams {
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
function answerOf(kind: QuestionKind, action: string, content: unknown): ApprovalAnswer {
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
function confirmPaths(answer: ApprovalAnswer, kind: QuestionKind, protectedPaths: readonly string[]): ApprovalAnswer {
  if (answer.kind !== 'once' && answer.kind !== 'always') return answer;
  // An escalation is approved for this one call, whatever the form said.
  const approved: ApprovalAnswer = kind === 'escalation' ? { kind: 'once', confirmEscalation: true } : { ...answer };
  return protectedPaths.length > 0 ? { ...approved, confirmProtected: true } : approved;
}

/**
 * The answer a 2026-07-28 retry carries: its sealed state (checked by the server before the handler runs) must be
 * of this call — the same tool and arguments — and the client's response to the one question asked.
 */
function answerCarried(ctx: ServerContext, fingerprint: string): { answer: ApprovalAnswer; kind: QuestionKind } | undefined {
  const state = ctx.mcpReq.requestState<ApprovalState>();
  if (typeof state !== 'object' || state === null || state.fingerprint !== fingerprint) return undefined;
  const response = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
  if (response.kind !== 'elicit') return undefined;
  return { answer: answerOf(state.kind, response.action, response.content), kind: state.kind };
}

/** The client's capabilities a 2026-07-28 request declares in its `_meta`. */
function envelopeCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** A call's tool and arguments, hashed (keys sorted): what an approval carried across rounds is bound to. */
function fingerprintOf(name: string, args: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify([name, sortedKeys(args)]))
    .digest('base64url');
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The progress value to send: the tool's own (0.25 of 1 reaches the client as 0.25), as long as it increases, which
 * MCP requires of every notification; a report without a value, or one that does not increase, gets the
 * smallest step above the last value sent (its message still reaches the client).
 */
function nextProgress(previous: number, reported: number | undefined): number {
  if (reported !== undefined && Number.isFinite(reported) && reported > previous) return reported;
  if (previous === -Infinity) return 0;
  return previous + Math.max(Math.abs(previous), 1) * 2 ** -40;
}

/** An `isError` result; the text is escaped like every other text this server sends. */
function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text: escapeTerminalControls(text) }], isError: true };
}

/** A `tools/list` entry with its human-readable texts escaped (imported tools carry a remote server's words). */
function safeListing<T extends { description?: string; title?: string }>(tool: T): T {
  return {
    ...tool,
    ...(tool.description !== undefined ? { description: escapeTerminalControls(tool.description) } : {}),
    ...(tool.title !== undefined ? { title: escapeTerminalControls(tool.title) } : {}),
  };
}
