import { defineCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { USAGE } from '../usage.js';
import { configFlags } from './config-flags.js';
import { withCacheFlag } from '../with-cache-flag.js';
import { useSearchIndexFile } from './search-index-file.js';

/** `toolwright serve --mcp stdio|http`: the registry over MCP until interrupted (or stdin ends, for stdio). */
/** How long after its start `serve` probes the kernel sandbox for its warning. */
const PROBE_DELAY_MS = 1000;

export const serveCommand = defineCommand({
  options: {
    mcp: { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    sessions: { type: 'boolean', default: false },
    'allow-host': { type: 'string', multiple: true },
    'allow-origin': { type: 'string', multiple: true },
    'auth-token-env': { type: 'string' },
    'insecure-no-auth': { type: 'boolean', default: false },
    'session-idle-timeout': { type: 'string' },
    'max-sessions': { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'request-timeout': { type: 'string' },
    'state-key-env': { type: 'string' },
    project: { type: 'string', short: 'p' },
    workspace: { type: 'string' },
    config: { type: 'string' },
    policy: { type: 'string' },
    audit: { type: 'string' },
    tasks: { type: 'string' },
    cache: { type: 'boolean', default: false },
    defer: { type: 'string', multiple: true },
    'search-index': { type: 'string' },
  },
  async run(values, _positionals, io) {
    const mode = values.mcp;
    if (mode !== 'stdio' && mode !== 'http') throw new CliError(`toolwright serve needs --mcp stdio or --mcp http.\n\n${USAGE}`, 2);
    const { deferGlobsOf, httpServeOptions, stateKeyOf } = await import('./serve.js');
    const httpOptions = httpServeOptions(values);
    const stateKey = stateKeyOf(values);
    const defer = deferGlobsOf(values);
    const { openCallEnvironment } = await import('../call-environment.js');
    const { McpToolServer, serveHttp, serveStdio, HttpServeError, FileTaskStore, TaskFileInUseError } = await import('@toolwright/mcp');
    const { openTaskStore } = await import('./serve.js');
    const environment = await openCallEnvironment(
      {
        ...configFlags(values),
        defaultAuditName: `audit-serve-${process.pid}.jsonl`,
        stateless: mode === 'http' && !httpOptions.sessions,
        onCompile: (why) => io.err(`toolwright: compiling ${values.project ?? 'the project'} (${why})\n`),
      },
      io,
    );
    // Probed a moment after the start (the shell's first command probes at once if it comes sooner): the warning, if
    // any, follows shortly on stderr, and the client's first requests do not wait for bubblewrap to be started.
    if (environment.registry.has('shell_exec'))
      setTimeout(
        () => void environment.warnWithoutSandbox().catch((error: unknown) => io.err(`warning: the kernel sandbox could not be probed: ${String(error)}\n`)),
        PROBE_DELAY_MS,
      ).unref();
    const tasks = openTaskStore(values.tasks, environment.workspaceRoot, io, { FileTaskStore, TaskFileInUseError });
    // Deferred tools are found with tool_search: registered here unless the project brings its own.
    if (defer && !environment.registry.has('tool_search')) (await import('@toolwright/core-tools')).registerMetaTools(environment.registry);
    // `emit --search-index`'s file: tool_search loads it instead of indexing every tool on its first search.
    if (values['search-index'] !== undefined) useSearchIndexFile(environment.registry, values['search-index']);
    const tools = new McpToolServer({
      registry: environment.registry,
      executor: withCacheFlag(environment.executorOptions, values.cache),
      ...(stateKey ? { stateKey } : {}),
      ...(tasks ? { tasks: { store: tasks } } : {}),
      ...(defer ? { defer: { defer } } : {}),
    });
    for (const toolkit of environment.sessionToolkits) {
      tools.onSessionClosed((id) => {
        toolkit
          .endSession(id)
          .catch((error: unknown) =>
            io.err(`toolwright: disposing of ${toolkit.toolkit.name} for session ${id} failed: ${error instanceof Error ? error.message : String(error)}\n`),
          );
      });
    }
    let running: { close(): Promise<void>; url?: string };
    try {
      running = mode === 'stdio' ? await serveStdio(tools) : await serveHttp(tools, httpOptions);
    } catch (error) {
      await environment.close();
      if (error instanceof HttpServeError) throw new CliError(`toolwright serve: ${error.message}`, 2);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
        throw new CliError(`toolwright serve: cannot listen on ${httpOptions.host}:${httpOptions.port}: ${(error as Error).message}`, 1);
      throw error;
    }
    if (running.url !== undefined) {
      if (httpOptions.insecureNoAuth && httpOptions.bearerToken === undefined)
        io.err(`toolwright: WARNING: no authentication on ${httpOptions.host}; anyone who can reach this port can run the tools\n`);
      io.err(`toolwright: serving ${environment.registry.size} tools over MCP at ${running.url}\n`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (mode === 'stdio') process.stdin.once('end', stop);
    });
    await running.close();
    tasks?.close();
    await environment.close();
    return 0;
  },
});
