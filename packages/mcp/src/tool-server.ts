import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
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

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
}

interface ActiveCall {
  server: Server;
  extra: Extra;
  /** The last progress value sent (none yet: -Infinity). */
  progress: number;
  /** Aborted when the connection the call came in on closes (stateless HTTP has no other cancel path). */
  closed: AbortController;
}

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

  constructor(options: McpToolServerOptions) {
    this.registry = options.registry;
    this.info = { name: options.name ?? 'toolwright', version: options.version ?? '0.1.0' };
    this.executor = new ToolExecutor({ ...options.executor, registry: options.registry, approve: (request) => this.askApproval(request) });
    this.executor.on((event) => {
      if (event.type !== 'tool_call_update') return;
      const call = this.active.get(event.callId);
      const token = call?.extra._meta?.progressToken;
      if (!call || token === undefined) return;
      call.progress = nextProgress(call.progress, event.progress.progress);
      void call.extra
        .sendNotification({
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

  /** A protocol server bound to this registry and executor; connect it to a transport. */
  createServer(options: CreateServerOptions = {}): Server {
    const repeatScope = options.repeatScope ?? `connection-${randomBytes(9).toString('base64url')}`;
    const server = new Server(this.info, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toMcpTools(this.registry.list()).map(safeListing) }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.callTool(server, repeatScope, request.params.name, request.params.arguments, extra).catch((error: unknown) =>
        failure(`Tool execution failed: ${error instanceof Error ? error.message : String(error)}`),
      ),
    );
    this.live.add(server);
    server.onclose = () => {
      this.live.delete(server);
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
    for (const listener of this.sessionListeners) listener(sessionId);
  }

  private async callTool(
    server: Server,
    repeatScope: string | false,
    name: string,
    args: Record<string, unknown> | undefined,
    extra: Extra,
  ): Promise<CallToolResult> {
    const callId = `mcp_${randomBytes(9).toString('base64url')}`;
    const closed = new AbortController();
    this.active.set(callId, { server, extra, progress: -Infinity, closed });
    try {
      const result = await this.executor.executeToolCall(
        { id: callId, name, arguments: args ?? {} },
        {
          signal: AbortSignal.any([extra.signal, closed.signal]),
          // A session is its client; without one, the connection's (or no) identity.
          ...(extra.sessionId !== undefined ? { sessionId: extra.sessionId } : { repeatScope }),
        },
      );
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
   * Asks the client's user through elicitation. Where nobody can be asked (stateless HTTP, a client
   * without elicitation, a failed request) the answer is `unavailable`, never a person's `reject`; a
   * protected path is named in the question, and an accepted answer confirms it. An escalation is asked
   * as running outside the sandbox (see `escalationQuestion`).
   */
  private async askApproval(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const call = this.active.get(request.callId);
    if (!call) return { kind: 'unavailable', message: 'no MCP request is waiting for this approval' };
    const capabilities = call.server.getClientCapabilities();
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
    if (request.escalation !== undefined) return escalationQuestion(call, request, warning);
    try {
      const answer = await call.server.elicitInput(
        {
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
        },
        { signal: call.extra.signal },
      );
      const decision = answer.action === 'accept' ? (answer.content as { decision?: unknown } | undefined)?.decision : undefined;
      // The user saw the protected paths in the question: an accepted answer confirms them.
      if (decision === 'once' || decision === 'always') return { kind: decision, ...(protectedPaths.length > 0 ? { confirmProtected: true } : {}) };
      return {
        kind: 'reject',
        message:
          answer.action === 'accept' ? 'the user rejected the call' : `the user ${answer.action === 'decline' ? 'declined' : 'cancelled'} the approval request`,
      };
    } catch (error) {
      return { kind: 'unavailable', message: `the approval request failed: ${(error as Error).message}` };
    }
  }
}

/** The form field whose `true` is a person's confirmation that the call runs outside the sandbox. */
const CONFIRM_FIELD = 'run_outside_sandbox';

/**
 * Asks the client's user to approve an escalation: the question names it as running outside the
 * sandbox, and only an accepted form with `run_outside_sandbox: true` (a required field, no default, so
 * a client that fills a form in blindly leaves it out) approves it — for this one call.
 */
async function escalationQuestion(call: ActiveCall, request: ApprovalRequest, warning: string): Promise<ApprovalAnswer> {
  const reason = request.reason !== request.escalation ? ` It needs approval: ${request.reason}.` : '';
  try {
    const answer = await call.server.elicitInput(
      {
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
      },
      { signal: call.extra.signal },
    );
    const content = answer.action === 'accept' ? (answer.content as Record<string, unknown> | undefined) : undefined;
    if (content?.[CONFIRM_FIELD] === true)
      return { kind: 'once', confirmEscalation: true, ...(request.protectedPaths?.length ? { confirmProtected: true } : {}) };
    return {
      kind: 'reject',
      message:
        answer.action === 'accept'
          ? 'the user did not confirm running it outside the sandbox'
          : `the user ${answer.action === 'decline' ? 'declined' : 'cancelled'} the approval request`,
    };
  } catch (error) {
    return { kind: 'unavailable', message: `the approval request failed: ${(error as Error).message}` };
  }
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
