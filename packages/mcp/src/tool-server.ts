import { randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type InputRequest,
  type InputRequiredResult,
  type RequestStateCodec,
  type StandardSchemaV1,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import {
  DeferredToolSet,
  DEFAULT_SEARCH_TOOL,
  escapeTerminalControls,
  escapeTerminalControlsDeep,
  ToolExecutor,
  type ApprovalAnswer,
  type ApprovalRequest,
  type AskRequest,
  type DeferredToolSetOptions,
  type ExecutorOptions,
  type ToolCallResult,
} from '@toolwright/executor';
import { structuredContentOf, toMcpTools, type ToolRegistry } from '@toolwright/registry';
import type { ClientFeature, ToolDeclaration } from '@toolwright/schema';
import type { AskQuestion, ContentBlock } from '@toolwright/tool';
import { answerOf, approvalForm, confirmPaths } from './approval-forms.js';
import { ClientApprovals } from './client-approvals.js';
import { TASKS_EXTENSION, taskView, Tasks, type TaskOptions } from './tasks.js';
import {
  APPROVAL_INPUT,
  carriedAnswers,
  elicitAnswerOf,
  envelopeCapabilities,
  fingerprintOf,
  questionDigest,
  roomForAnotherRound,
  roundDigest,
  roundResponses,
  SpentStates,
  type AskedKind,
  type CarriedAnswers,
  type RoundState,
} from './input-rounds.js';

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
  /**
   * The secret that seals what a 2026-07-28 client carries between the rounds of a call that asks its user (at least
   * 32 bytes). Give every process behind one balancer the same: a retry that reaches a process whose key differs is
   * refused (-32602, the client starts the call over). Default: a random key of this process.
   */
  stateKey?: Uint8Array | string;
  /** How long the client may take to come back with an answer, in seconds (default 1,800); after it, refused (-32602). */
  stateTtlSeconds?: number;
  /**
   * Tasks (2026-07-28 clients that declare the io.modelcontextprotocol/tasks extension): a call of a tool declared
   * with `task` that runs longer than `startAfterMs` becomes a task the client polls. Default: kept in memory.
   */
  tasks?: TaskOptions;
  /**
   * Deferred loading (see the executor's `DeferredToolSet`): `tools/list` lists the tools that are not deferred and the
   * search tool (`tool_search`, which must be registered); a client's `tool_search` calls load the deferred tools they
   * find for that client — `notifications/tools/list_changed` follows, and its next `tools/list` includes them — and a
   * call of a deferred tool it has not loaded is refused with the correction. A client is a stdio connection or an HTTP
   * session; a stateless HTTP request has no client to remember loading for: its calls of deferred tools are run.
   * Tools declared `defer: true` are deferred too (unless `declared: false`). Without it every tool is listed, as declared.
   */
  defer?: DeferredToolSetOptions;
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

/** Where a call comes from: its protocol server, era and request, its client, and the tools that client loaded. */
interface CallOrigin {
  server: Server;
  era: ProtocolEra;
  ctx: ServerContext;
  client: string | undefined;
  /** The client's deferred loading (`defer`), where the server can tell its client apart. */
  offered?: DeferredToolSet;
}

interface ActiveCall {
  server: Server;
  era: ProtocolEra;
  ctx: ServerContext;
  /** The client the call comes from (its session or connection), when one can be told apart; its approvals are its own. */
  client: string | undefined;
  /** The last progress value sent (none yet: -Infinity). */
  progress: number;
  /**
   * Ends the run: the request's end or the connection closing (stateless HTTP has no other cancel path) — until the
   * call becomes a task — or the call handing its questions to the client.
   */
  stop: AbortController;
  /** 2026-07-28: what the client's retry brought (the approval and the answers so far), and how many questions were asked. */
  carried: CarriedAnswers;
  questionsAsked: number;
  /** 2026-07-28: what this round leaves for the client to ask, by key (the result becomes `input_required`). */
  pending?: { requests: Record<string, InputRequest>; asked: RoundState['asked'] };
  /** 2026-07-28: the call handed its questions to the client: the run ends there, to start again with the answers. */
  handedOver: boolean;
  /** Hears the hand-over (a task tool's call waiting to see whether it becomes a task). */
  onHandOver?: () => void;
  /** A round of the tool's questions is being asked (2025-11-25 one by one, or waiting in its task). */
  asking?: boolean;
  /** The task the call became (2026-07-28 with the tasks extension): its questions wait in the task, not in a request. */
  task?: string;
}

/**
 * Serves a registry over MCP, in both protocol eras (2025-11-25 and 2026-07-28), with every call going through one
 * executor, so policy, approval, truncation and audit apply exactly as in process. `tools/list` comes from the
 * declarations; `tools/call` answers failures as `isError` results carrying the correction text, returns results as
 * `structuredContent` (content blocks as the result's content), reports tool progress as progress notifications,
 * turns the client's cancellation into the call's AbortSignal, and asks the client's user — approvals and a tool's
 * own questions — by elicitation (2025) or `input_required` rounds (2026), refusing, saying why, where nobody can be
 * asked. Every text it sends (results, structured content, errors, progress messages, questions, tool descriptions)
 * has terminal control and bidi characters escaped: a tool's output never drives the client's terminal.
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
   * Seals what an `input_required` result leaves with the client (2026-07-28): a state the server cannot verify
   * (forged, expired, sealed by a process with another key) is refused with -32602, as the protocol requires.
   */
  private readonly states: RequestStateCodec<RoundState>;
  private readonly spentStates: SpentStates;
  /** The tasks calls became (2026-07-28 clients with the tasks extension). */
  readonly tasks: Tasks;
  private readonly defer: DeferredToolSetOptions | undefined;

  constructor(options: McpToolServerOptions) {
    this.registry = options.registry;
    const ttlSeconds = options.stateTtlSeconds ?? 1800;
    this.states = createRequestStateCodec<RoundState>({ key: options.stateKey ?? randomBytes(32), ttlSeconds });
    this.spentStates = new SpentStates(ttlSeconds * 1000);
    this.info = { name: options.name ?? 'toolwright', version: options.version ?? '0.1.0' };
    this.tasks = new Tasks(options.tasks);
    this.defer = options.defer;
    if (this.defer) {
      // Checked now (the options too): a client should not be the first to hear the server cannot find its tools.
      const { searchTool } = new DeferredToolSet(this.registry, this.defer);
      if (!this.registry.has(searchTool))
        throw new TypeError(
          `McpToolServer: defer needs the '${searchTool}' tool registered, to find the deferred tools${searchTool === DEFAULT_SEARCH_TOOL ? ' (registerMetaTools(registry) of @toolwright/core-tools)' : ''}`,
        );
    }
    this.executor = new ToolExecutor({
      approvals: this.approvals,
      ...options.executor,
      registry: options.registry,
      approve: (request) => this.askApproval(request),
      ask: (request) => this.askRound(request),
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
      capabilities: { tools: { listChanged: true }, ...(era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) },
      // A retry's echoed state is checked before the handler sees it: one that does not verify (altered, expired, sealed
      // with another key) refuses the request with -32602 "Invalid or expired requestState" — the client starts over.
      requestState: { verify: (state, ctx) => this.states.verify(state, ctx) },
    });
    // Deferred loading: per client where there is one (a connection, a session); a stateless request lists as a new client.
    const loading = this.defer ? new DeferredToolSet(this.registry, this.defer) : undefined;
    const offered = options.oneClient === false ? undefined : loading;
    // The schemas are JSON Schema objects; the SDK types their properties as JSON values.
    server.setRequestHandler('tools/list', async () => ({
      tools: toMcpTools(loading ? loading.declarations() : this.registry.list(), { era }).map(safeListing) as unknown as Tool[],
    }));
    server.setRequestHandler('tools/call', (request, ctx) =>
      this.callTool({ server, era, ctx, client: ctx.sessionId ?? connection, offered }, repeatScope, request.params.name, request.params.arguments).catch(
        (error: unknown) => {
          if (error instanceof ProtocolError) throw error; // the protocol's own answer (-32021), not the tool's failure
          return failure(`Tool execution failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      ),
    );
    if (era === 'modern') this.serveTasks(server);
    this.live.add(server);
    server.onclose = () => {
      this.live.delete(server);
      if (connection) this.approvals.forget(connection);
      // A call that became a task outlives the request (and the connection) that started it.
      for (const call of this.active.values()) if (call.server === server && !call.task) call.stop.abort(new Error('the client connection closed'));
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
    on: CallOrigin,
    repeatScope: string | false,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
    // Looked up once for the call (an unknown tool, or one the client was not offered, has none: the executor says why).
    const declaration = on.offered && !on.offered.offers(name) ? undefined : this.registry.get(name)?.declaration;
    const missing = this.missingClientFeatures(on, declaration?.metadata.requiresClient);
    if (missing) {
      const what = missing.features.map((feature) => `'${feature}'`).join(' and ');
      const message = `${name} needs a client that declares ${what}; ${missing.why}`;
      // 2026-07-28 has an error for it (-32021, HTTP 400) naming the capabilities to declare; 2025-11-25 does not.
      if (on.era === 'modern')
        throw new MissingRequiredClientCapabilityError({ requiredCapabilities: Object.fromEntries(missing.features.map((feature) => [feature, {}])) }, message);
      return failure(message);
    }
    const taskSupport = declaration?.metadata.task;
    const asTask = taskSupport !== undefined && on.era === 'modern' && declaresTasks(on.ctx) && this.tasks.hasRoom();
    if (taskSupport === 'required' && asTask === false && on.era === 'modern' && declaresTasks(on.ctx))
      return failure(`${name} runs only as a task, and ${this.tasks.maxRunning} tasks are running already: call it again when one has ended`);
    if (taskSupport === 'required' && !asTask) {
      const message = `${name} runs only as a task: it needs a 2026-07-28 client that declares the ${TASKS_EXTENSION} extension`;
      if (on.era === 'modern') throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } }, message);
      return failure(message);
    }
    const callId = nextCallId();
    // The fingerprint (a hash of the tool and its arguments) only where a 2026-07-28 round needs it.
    let fingerprint: string | undefined;
    const fingerprintNow = () => (fingerprint ??= fingerprintOf(name, args ?? {}));
    let carried: CarriedAnswers = on.era === 'modern' ? carriedAnswers(on.ctx, fingerprintNow) : { answers: [] };
    // A state is good for one retry: sent again, its answers carry nothing (asked again).
    if (carried.nonce !== undefined && !this.spentStates.use(carried.nonce)) carried = { answers: [] };
    const stop = new AbortController();
    const call: ActiveCall = {
      server: on.server,
      era: on.era,
      ctx: on.ctx,
      client: on.client,
      progress: -Infinity,
      stop,
      carried,
      questionsAsked: 0,
      handedOver: false,
    };
    // The request's end (its cancellation, its stream closing) ends the call, until the call becomes a task.
    const request = on.ctx.mcpReq.signal;
    const follow = () => {
      if (!call.task) stop.abort(request.reason);
    };
    if (request.aborted) follow();
    else request.addEventListener('abort', follow, { once: true });
    this.active.set(callId, call);
    let detached = false;
    try {
      const execution = this.executor.executeToolCall(
        { id: callId, name, arguments: args ?? {} },
        {
          signal: stop.signal,
          // A session is its client; without one, the connection's (or no) identity.
          ...(on.ctx.sessionId !== undefined ? { sessionId: on.ctx.sessionId } : { repeatScope }),
          // A retry names the call's first round: the rounds of one call read as one in the audit log.
          ...(carried.origin !== undefined ? { retryOf: carried.origin } : {}),
          ...(on.offered ? { offeredTools: on.offered } : {}),
        },
      );
      // A task tool's call that neither ends nor asks within `startAfterMs` becomes a task: the client polls it.
      // (Room is looked at again: calls that started together may have filled it meanwhile.)
      if (asTask && (await startsAsTask(execution, call, this.tasks.startAfterMs)) && this.tasks.hasRoom()) {
        const task = this.tasks.create(callId, name, stop);
        call.task = task.taskId;
        detached = true;
        void execution
          .then(
            (result) =>
              this.tasks.settle(
                task.taskId,
                result.status === 'error' && SERVER_FAILURES.has(result.error.code)
                  ? { error: { code: -32603, message: escapeTerminalControls(result.content) } }
                  : { result: this.resultOf(declaration, result, on.era) },
              ),
            (error: unknown) =>
              this.tasks.settle(task.taskId, { error: { code: -32603, message: escapeTerminalControls(`the call failed: ${(error as Error).message}`) } }),
          )
          .catch(() => undefined) // a store that cannot keep the outcome (closed at shutdown, a full disk) loses only it
          .finally(() => this.active.delete(callId));
        return { resultType: 'task', ...taskView(task) } as unknown as CallToolResult;
      }
      const result = await execution;
      // The deferred tools a search found are the client's from now on: it hears that its tool list changed.
      if (on.offered && on.offered.loadFound([result]).length > 0) void on.server.sendToolListChanged().catch(() => undefined);
      // 2026-07-28: the client asks its user, then calls again with the answer and this sealed state.
      if (call.pending) {
        const state: RoundState = {
          nonce: randomBytes(12).toString('base64url'),
          origin: carried.origin ?? callId,
          fingerprint: fingerprintNow(),
          ...(carried.approval ? { approval: carried.approval } : {}),
          answers: carried.answers,
          asked: call.pending.asked,
        };
        const requestState = await this.states.mint(state, on.ctx);
        return inputRequired({ inputRequests: call.pending.requests, requestState });
      }
      return this.resultOf(declaration, result, on.era);
    } finally {
      if (!detached) this.active.delete(callId);
    }
  }

  /** A finished call as `tools/call` answers it. */
  private resultOf(declaration: ToolDeclaration | undefined, result: ToolCallResult, era: ProtocolEra): CallToolResult {
    if (result.status !== 'completed') return failure(result.content);
    // Content blocks (images, audio, resources) are the result's content, as the tool made them.
    if (result.blocks) return { content: result.blocks.map(safeBlock) };
    // An array or a primitive goes as it is to a 2026-07-28 client, wrapped as { result } to a 2025-11-25 one.
    const content = declaration ? structuredContentOf(declaration, result.output, { era }) : undefined;
    const structured = content !== undefined ? { structuredContent: escapeTerminalControlsDeep(content) as Record<string, unknown> } : {};
    return { content: [{ type: 'text', text: escapeTerminalControls(result.content) }], ...structured };
  }

  /**
   * `tasks/get`, `tasks/update` and `tasks/cancel` on a 2026-07-28 server: only for a client that declares the tasks
   * extension (-32021 otherwise); an unknown task is -32602.
   */
  private serveTasks(server: Server): void {
    const known = (params: { taskId: string }, ctx: ServerContext) => {
      if (!declaresTasks(ctx))
        throw new MissingRequiredClientCapabilityError(
          { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
          `tasks need a client that declares the ${TASKS_EXTENSION} extension`,
        );
      const task = this.tasks.get(params.taskId);
      if (!task)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `no task ${escapeTerminalControls(JSON.stringify(params.taskId))} here (unknown, or past its ttlMs)`,
        );
      return task;
    };
    server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, (params, ctx) => ({ resultType: 'complete', ...taskView(known(params, ctx)) }));
    server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, (params, ctx) => {
      this.tasks.cancel(known(params, ctx).taskId);
      return { resultType: 'complete' };
    });
    server.setRequestHandler('tasks/update', { params: TASK_PARAMS }, (params, ctx) => {
      // The SDK lifts `inputResponses` out of a request's params into its context (as for any multi-round request).
      const responses = params.inputResponses ?? ctx.mcpReq.inputResponses ?? {};
      this.tasks.answer(known(params, ctx).taskId, responses);
      return { resultType: 'complete' };
    });
  }

  /**
   * What a tool requires of the client behind its call (`requiresClient`) that this client did not declare, and why
   * that is so; undefined when nothing is missing.
   */
  private missingClientFeatures(
    on: { server: Server; era: ProtocolEra; ctx: ServerContext },
    required: readonly ClientFeature[] | undefined,
  ): { features: ClientFeature[]; why: string } | undefined {
    if (!required || required.length === 0) return undefined;
    const capabilities = on.era === 'modern' ? envelopeCapabilities(on.ctx) : on.server.getClientCapabilities();
    if (!capabilities)
      return {
        features: [...required],
        why:
          on.era === 'modern'
            ? "this request's _meta declares no client capabilities"
            : 'this server runs stateless over HTTP and cannot see what a 2025-11-25 client declares; serve with sessions (--sessions)',
      };
    const features = required.filter((feature) => !capabilities[feature]);
    return features.length > 0 ? { features, why: 'this client did not declare it, so the call was not run' } : undefined;
  }

  /** Why the client cannot be asked this kind of question (approval: a form too), or undefined when it can. */
  private cannotAsk(call: ActiveCall, what: 'approval' | AskedKind): string | undefined {
    const capabilities: ClientCapabilities | undefined = call.era === 'modern' ? envelopeCapabilities(call.ctx) : call.server.getClientCapabilities();
    if (!capabilities)
      return what === 'approval'
        ? "this server runs stateless over HTTP, so it cannot ask the client's user for approval; allow the call in the server's policy, or serve with sessions (toolwright serve --mcp http --sessions)"
        : 'this server runs stateless over HTTP, so it cannot ask the client; serve with sessions (toolwright serve --mcp http --sessions)';
    if (what === 'sample') return capabilities.sampling ? undefined : "the MCP client cannot sample its model (it does not declare the 'sampling' capability)";
    if (what === 'roots') return capabilities.roots ? undefined : "the MCP client has no roots to list (it does not declare the 'roots' capability)";
    if (!capabilities.elicitation)
      return what === 'approval'
        ? "the MCP client cannot ask its user for approval (it does not support elicitation); allow the call in the server's policy instead"
        : 'the MCP client cannot ask its user (it does not support elicitation)';
    return undefined;
  }

  /**
   * A running tool's round of questions (`getToolContext().ask`, `.elicit`): on 2025-11-25 asked one after another
   * (elicitation, sampling, roots); on 2026-07-28 handed to the client as one `input_required` result under the tool's
   * keys — only what the client declared it can answer — the run ending there; the next run gets the answers given so
   * far, round by round in the order the tool asks.
   */
  private async askRound(request: AskRequest): Promise<Record<string, unknown>> {
    const call = this.active.get(request.callId);
    const keys = Object.keys(request.questions);
    const everyKey = (message: string) => Object.fromEntries(keys.map((key) => [key, { action: 'unavailable', message }]));
    if (!call) return everyKey('no MCP request is waiting for this question');
    // One round at a time: a second asked while the first waits for its answers would take the first's place.
    if (call.asking || call.pending) return everyKey('another round of questions of this call is waiting for its answers: ask one round at a time');
    const question = roundDigest(request.questions);
    const index = call.questionsAsked++;
    if (call.era === 'modern' && !call.task) {
      // The answers carried are given back in order, each only to the very round it answered: from the first round
      // asked otherwise on, they are dropped and asked again.
      const known = call.carried.answers[index];
      if (known?.question === question) return known.answer;
      if (known) call.carried.answers.length = index;
    }
    const answers: Record<string, unknown> = {};
    const asking: Record<string, AskedKind> = {};
    for (const key of keys) {
      const refused = this.cannotAsk(call, request.questions[key]!.kind);
      if (refused) answers[key] = { action: 'unavailable', message: refused };
      else asking[key] = request.questions[key]!.kind;
    }
    if (Object.keys(asking).length === 0) {
      // Answered here, but a round all the same: kept with the others, so the rounds after it keep their places.
      if (call.era === 'modern' && !call.task && call.carried.answers.length === index) call.carried.answers.push({ question, answer: answers });
      return answers;
    }
    if (call.task) {
      // A task's questions wait in the task (input_required) until its client answers them all with tasks/update.
      const requests = Object.fromEntries(Object.keys(asking).map((key) => [key, inputRequestOf(request.tool, request.questions[key]!)]));
      call.asking = true;
      try {
        const responses = await this.tasks.ask(call.task, requests).catch(() => undefined);
        if (!responses) return everyKey('the task ended before its questions were answered');
        return { ...answers, ...roundResponses(asking, responses) };
      } finally {
        call.asking = false;
      }
    }
    if (call.era === 'modern') {
      if (!roomForAnotherRound(call.carried.answers)) return everyKey('the call has asked as many questions as one call may');
      const requests = Object.fromEntries(Object.keys(asking).map((key) => [key, inputRequestOf(request.tool, request.questions[key]!)]));
      const unavailable = Object.fromEntries(Object.entries(answers).map(([key, answer]) => [key, (answer as { message: string }).message]));
      call.pending = { requests, asked: { question, keys: asking, ...(Object.keys(unavailable).length > 0 ? { unavailable } : {}) } };
      const handedOver = new Error('the questions were handed to the MCP client (input_required): this run ends here, the next one gets the answers');
      call.handedOver = true;
      call.stop.abort(handedOver);
      call.onHandOver?.();
      // The run ends here (its signal is aborted): the tool's own cleanup (`finally`) runs, and nothing it does after
      // counts — the call's outcome is the input_required result.
      throw handedOver;
    }
    call.asking = true;
    try {
      for (const key of Object.keys(asking)) answers[key] = await this.askOne(call, request.tool, request.questions[key]!, request.signal);
      return answers;
    } finally {
      call.asking = false;
    }
  }

  /** One question asked of a 2025-11-25 client: its user's form, its model's sample, its roots. */
  private async askOne(call: ActiveCall, tool: string, question: AskQuestion, signal: AbortSignal): Promise<unknown> {
    try {
      if (question.kind === 'form') {
        const answer = await call.server.elicitInput(formOf(tool, question), { signal });
        return elicitAnswerOf(answer.action, answer.content);
      }
      if (question.kind === 'sample') return { action: 'accept', content: await call.server.createMessage(sampleOf(question), { signal }) };
      return { action: 'accept', content: (await call.server.listRoots(undefined, { signal })).roots };
    } catch (error) {
      return { action: 'unavailable', message: `the question could not be asked: ${(error as Error).message}` };
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
    const { form, kind } = approvalForm(request);
    const protectedPaths = request.protectedPaths ?? [];
    // A retry carries the person's answer to this very question about this very call: the same kind (a plain "once"
    // never confirms a run outside the sandbox) and the same wording (the reason, the protected paths named), else
    // it is asked again — the file system may show this run paths the person was never shown.
    const question = questionDigest(form);
    const carried = call.carried.approval;
    if (call.era === 'modern' && carried?.kind === kind && carried.question === question) return confirmPaths(carried.answer, kind, protectedPaths);
    const refused = this.cannotAsk(call, 'approval');
    if (refused) return { kind: 'unavailable', message: refused };
    if (call.task) {
      const responses = await this.tasks.ask(call.task, { [APPROVAL_INPUT]: inputRequired.elicit(form) }).catch(() => undefined);
      const response = responses?.[APPROVAL_INPUT] as { action?: string; content?: Record<string, unknown> } | undefined;
      if (typeof response?.action !== 'string') return { kind: 'unavailable', message: 'the task ended before its approval was answered' };
      return confirmPaths(answerOf(kind, response.action, response.content), kind, protectedPaths);
    }
    if (call.era === 'modern') {
      call.pending = { requests: { [APPROVAL_INPUT]: inputRequired.elicit(form) }, asked: { approval: kind, question } };
      return { kind: 'deferred', message: "asked through the MCP client (input_required), which calls again with the user's answer" };
    }
    try {
      const answer = await call.server.elicitInput(form, { signal: call.ctx.mcpReq.signal });
      return confirmPaths(answerOf(kind, answer.action, answer.content), kind, protectedPaths);
    } catch (error) {
      return { kind: 'unavailable', message: `the approval request failed: ${(error as Error).message}` };
    }
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

/**
 * Call ids unique across processes (audit logs of several processes merge by id): a random prefix per process and a
 * counter — not 9 random bytes per call, which cost more than the rest of a call's bookkeeping.
 */
const CALL_ID_PREFIX = `mcp_${randomBytes(9).toString('base64url')}_`;
let callCounter = 0;
function nextCallId(): string {
  return `${CALL_ID_PREFIX}${(++callCounter).toString(36)}`;
}

/** A tool's form as its client's user sees it: the tool named, the texts escaped. */
function formOf(tool: string, question: Extract<AskQuestion, { kind: 'form' }>): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: escapeTerminalControls(`${tool} asks: ${question.message}`),
    requestedSchema: question.schema as ElicitRequestFormParams['requestedSchema'],
  };
}

/** A tool's sample as the client's model is asked it (texts escaped: the client may show them to its user). */
function sampleOf(question: Extract<AskQuestion, { kind: 'sample' }>): CreateMessageRequestParams {
  return {
    messages: question.messages.map(({ role, content }) => ({
      role,
      content: content.type === 'text' ? { type: 'text', text: escapeTerminalControls(content.text) } : { ...content },
    })),
    maxTokens: question.maxTokens,
    ...(question.systemPrompt !== undefined ? { systemPrompt: escapeTerminalControls(question.systemPrompt) } : {}),
    ...(question.temperature !== undefined ? { temperature: question.temperature } : {}),
    ...(question.stopSequences !== undefined ? { stopSequences: question.stopSequences.map((stop) => escapeTerminalControls(stop)) } : {}),
  };
}

/** A tool's question as a 2026-07-28 input request. */
function inputRequestOf(tool: string, question: AskQuestion): InputRequest {
  if (question.kind === 'form') return inputRequired.elicit(formOf(tool, question));
  return question.kind === 'sample' ? inputRequired.createMessage(sampleOf(question)) : inputRequired.listRoots();
}

/** An `isError` result; the text is escaped like every other text this server sends. */
function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text: escapeTerminalControls(text) }], isError: true };
}

/** A content block with the texts a person reads escaped (the data of images, audio and blobs is left as it is). */
function safeBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: escapeTerminalControls(block.text) };
    case 'resource_link':
      return escapeTerminalControlsDeep(block) as ContentBlock;
    case 'resource':
      return 'text' in block.resource ? { type: 'resource', resource: { ...block.resource, text: escapeTerminalControls(block.resource.text) } } : block;
    default:
      return block;
  }
}

/** A `tools/list` entry with its human-readable texts escaped (imported tools carry a remote server's words). */
function safeListing<T extends { description?: string; title?: string }>(tool: T): T {
  return {
    ...tool,
    ...(tool.description !== undefined ? { description: escapeTerminalControls(tool.description) } : {}),
    ...(tool.title !== undefined ? { title: escapeTerminalControls(tool.title) } : {}),
  };
}

/**
 * What ends a task `failed` (a protocol-level error) rather than `completed` with `isError` (the tool's own error): the
 * server could not produce the result — its audit failed, it was interrupted, it failed inside, or the tool answered
 * outside its declared result type.
 */
const SERVER_FAILURES = new Set<string>(['internal_error', 'audit_failed', 'interrupted', 'invalid_output']);

/** Whether a 2026-07-28 request's client declares the tasks extension. */
function declaresTasks(ctx: ServerContext): boolean {
  const extensions = (envelopeCapabilities(ctx) as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** True when the call is still running, and has asked nothing, after `ms`: it becomes a task. */
async function startsAsTask(execution: Promise<unknown>, call: ActiveCall, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    execution.then(
      () => 'ended' as const,
      () => 'ended' as const,
    ),
    new Promise<'asked'>((resolve) => {
      call.onHandOver = () => resolve('asked');
      if (call.handedOver) resolve('asked');
    }),
    new Promise<'long'>((resolve) => (timer = setTimeout(() => resolve('long'), ms))),
  ]);
  clearTimeout(timer);
  call.onHandOver = undefined;
  return outcome === 'long';
}

/** The params of tasks/get, tasks/update and tasks/cancel: a task id (and, to update, the answers by key). */
const TASK_PARAMS: StandardSchemaV1<unknown, { taskId: string; inputResponses?: Record<string, unknown> }> = {
  '~standard': {
    version: 1,
    vendor: 'toolwright',
    validate: (value) => {
      const params = value as { taskId?: unknown; inputResponses?: unknown } | null;
      if (typeof params !== 'object' || params === null || typeof params.taskId !== 'string') return { issues: [{ message: 'taskId must be a string' }] };
      const responses = params.inputResponses;
      if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses)))
        return { issues: [{ message: 'inputResponses must be an object of responses by key' }] };
      return { value: { taskId: params.taskId, ...(responses !== undefined ? { inputResponses: responses as Record<string, unknown> } : {}) } };
    },
  },
};
