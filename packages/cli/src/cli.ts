import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';
import { LIST_FORMATS } from './commands/list-formats.js';
import { preloadTypeScript } from './typescript-code-cache.js';
import type { ServeFlags } from './commands/serve.js';
import { commandHelpRequest } from './help/command-help.js';
import type { ConfigFlags } from './config/cli-settings.js';

// Commands load what they need when they run: `toolwright emit` never loads the executor, the core
// tools or the MCP SDK, and `toolwright call` never loads the compiler unless a project is given.

const USAGE = `Usage: toolwright <command> [options]

Commands:
  init    Set up a project for tools: a tsconfig with the transformer entries (added to an existing
          one), src/tools.ts, toolwright.config.json, toolwright.policy.json and npm scripts
          (build, emit, serve). Existing files are kept and named; --force overwrites them
          (a tsconfig is only ever added to).
          --force                    overwrite existing files and npm scripts of the same name
  emit    Write every @tool declaration of a project as JSON (and/or a module).
          --project, -p <tsconfig>   project to analyse (default: tsconfig.json)
          --out <file>               manifest path (default: tools.json beside the tsconfig)
          --module <file.ts>         also write a module that attaches the declarations,
                                     for builds that do not run TypeScript transformers
          --check                    fail when the files on disk differ (CI drift check)
          --watch                    re-emit after every change
  build   Compile a project like tsc -p, with Toolwright's transformers (no ts-patch needed):
          the emitted JavaScript carries every declaration; bad tools fail the build.
          --project, -p <tsconfig>   project to build (default: tsconfig.json)
          --pretty / --no-pretty     diagnostics with code frames (default: on a terminal)
  list    Print the registered tools: the core tools and a project's own.
          --project, -p <tsconfig>   include a project's own tools
          --format <f>               ${LIST_FORMATS.join(' | ')} (default json)
          --no-core                  leave the core tools out
  call <tool> --args '<json>'
          Run one call through the full executor and print the result as JSON.
          --args -                   read the arguments from standard input
          --project, -p <tsconfig>   the project whose tools to load
          --workspace <dir>          the workspace the call is confined to (default: .)
          --policy <file>            allow/ask/deny rules (JSON)
          --audit <file|none>        audit log (default: <workspace>/.toolwright/audit.jsonl)
          --yes                      approve calls that need approval
  serve --mcp stdio | --mcp http [--port N] [--host H] [--sessions]
          Serve the core tools and a project's own over the Model Context Protocol; every call goes
          through the executor (policy, approval by elicitation, audit, truncation).
          --project, -p <tsconfig>   include a project's own tools
          --workspace <dir>          the workspace the tools are confined to (default: .)
          --policy <file>            allow/ask/deny rules (JSON)
          --audit <file|none>        audit log (default: <workspace>/.toolwright/audit-serve-<pid>.jsonl)
          --sessions                 HTTP with sessions: approvals by elicitation and cancellation
                                     (needs session affinity behind a balancer; default: stateless)
        HTTP only. Requests must name this server in Host (localhost, 127.0.0.1 or [::1] with its
        port) and come from no web page or a loopback one (Origin); others get 403.
          --allow-host <h>           also accept this Host: name (any port), name:port, or * (repeatable)
          --allow-origin <o>         also accept this Origin, e.g. https://app.example.com, or * (repeatable)
          --auth-token-env <NAME>    require Authorization: Bearer <the value of $NAME>
          --insecure-no-auth         allow a non-loopback --host without a token (anyone reaching it can run tools)
          --session-idle-timeout <s> close a session idle this many seconds (default 600)
          --max-sessions <n>         most live sessions (default 100); the least recently used idle one
                                     is closed for a new one, and 503 when all are busy
          --max-body-bytes <n>       largest request body (default 4194304); larger gets 413
          --request-timeout <s>      time to send a whole request (default 30); slower gets 408
  policy explain <tool> --args '<json>' --policy <file>
          Show which rule decides a call, and every rule's verdict.
          --project, -p <tsconfig>   the project whose tools to load
  policy check <file>
          Load a policy and check its rules' match / not_match examples.
  help [command]  Show this text, or a command's help (also: toolwright <command> --help).

Configuration: call, serve, list and policy read toolwright.config.json (--config <file>, else the
  one in the current directory, else in --workspace); flags override it. See docs/configuration.md.

Exit codes: 0 ok, 1 findings (diagnostics, drift, a failed call), 2 usage errors.
`;

/** Runs the CLI; returns the process exit code (0 ok, 1 findings, 2 usage). */
export async function main(argv: readonly string[], io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) }): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const help = commandHelpRequest(argv, USAGE);
    if (help !== undefined) {
      io.out(help);
      return 0;
    }
    switch (command) {
      case 'init':
        return await runInit(rest, io);
      case 'emit':
        return await runEmit(rest, io);
      case 'build':
        return await runBuild(rest, io);
      case 'list':
        return await runList(rest, io);
      case 'call':
        return await runCall(rest, io);
      case 'policy':
        return await runPolicy(rest, io);
      case 'serve':
        return await runServe(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new CliError(`Unknown command '${command}'.\n\n${USAGE}`, 2);
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

async function runInit(args: readonly string[], io: { out: (s: string) => void }): Promise<number> {
  const { values } = parse(args, { force: { type: 'boolean', default: false } });
  const { init, formatInitResult } = await import('./commands/init.js');
  io.out(formatInitResult(init({ dir: process.cwd(), force: values.force as boolean })));
  return 0;
}

async function runEmit(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { values } = parse(args, {
    project: { type: 'string', short: 'p', default: 'tsconfig.json' },
    out: { type: 'string' },
    module: { type: 'string' },
    check: { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
  });
  const options = {
    project: values.project as string,
    ...(values.out !== undefined ? { out: values.out as string } : {}),
    ...(values.module !== undefined ? { module: values.module as string } : {}),
    check: values.check as boolean,
  };
  const log = (line: string) => io.err(`${line}\n`);
  preloadTypeScript();
  if (values.watch) {
    if (options.check) throw new CliError('--watch and --check cannot be combined.', 2);
    const { emitWatch } = await import('./commands/emit-watch.js');
    emitWatch(options, () => {}, log);
    return new Promise<number>(() => {}); // runs until the process is interrupted
  }
  const { emit } = await import('./commands/emit.js');
  const result = emit(options, log);
  return result.errorCount > 0 ? 1 : 0;
}

async function runBuild(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { values } = parse(args, {
    project: { type: 'string', short: 'p', default: 'tsconfig.json' },
    pretty: { type: 'boolean' },
    'no-pretty': { type: 'boolean', default: false },
  });
  preloadTypeScript();
  const { build } = await import('./commands/build.js');
  const pretty = values['no-pretty'] ? false : (values.pretty as boolean | undefined);
  const result = build({ project: values.project as string, ...(pretty !== undefined ? { pretty } : {}) }, io.err);
  return result.errorCount > 0 ? 1 : 0;
}

async function runList(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { values } = parse(args, {
    project: { type: 'string', short: 'p' },
    format: { type: 'string', default: 'json' },
    'no-core': { type: 'boolean', default: false },
    workspace: { type: 'string' },
    config: { type: 'string' },
  });
  if (values.project !== undefined) preloadTypeScript();
  const { openToolEnvironment } = await import('./call-environment.js');
  const { listTools } = await import('./commands/list.js');
  const { registry } = openToolEnvironment({ ...configFlags(values), ...(values['no-core'] ? { core: false } : {}) }, io);
  io.out(`${JSON.stringify(listTools(registry, values.format as string), null, 2)}\n`);
  return 0;
}

async function runCall(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { values, positionals } = parse(args, {
    args: { type: 'string' },
    project: { type: 'string', short: 'p' },
    workspace: { type: 'string' },
    config: { type: 'string' },
    policy: { type: 'string' },
    audit: { type: 'string' },
    yes: { type: 'boolean', default: false },
  }, true);
  const [tool, ...extra] = positionals;
  if (!tool || extra.length > 0) throw new CliError(`toolwright call takes exactly one tool name.\n\n${USAGE}`, 2);
  if (values.args === undefined) throw new CliError(`toolwright call needs --args '<json>' (or --args - to read standard input).`, 2);
  if (values.project !== undefined) preloadTypeScript();
  const { openCallEnvironment } = await import('./call-environment.js');
  const { callTool } = await import('./commands/call.js');
  const { escapeTerminalControls } = await import('@toolwright/executor');
  const environment = await openCallEnvironment(configFlags(values), io);
  try {
    const report = await callTool(environment.registry, {
      tool,
      args: values.args as string,
      yes: values.yes as boolean,
      workspace: environment.workspaceRoot,
      executor: environment.executorOptions,
    });
    // A tool's output may hold terminal or bidi controls: written as \uXXXX escapes (still JSON).
    io.out(`${escapeTerminalControls(JSON.stringify(report, null, 2))}\n`);
    return report.status === 'completed' ? 0 : 1;
  } finally {
    await environment.close();
  }
}

async function runServe(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { values } = parse(args, {
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
    project: { type: 'string', short: 'p' },
    workspace: { type: 'string' },
    config: { type: 'string' },
    policy: { type: 'string' },
    audit: { type: 'string' },
  });
  const mode = values.mcp as string | undefined;
  if (mode !== 'stdio' && mode !== 'http') throw new CliError(`toolwright serve needs --mcp stdio or --mcp http.\n\n${USAGE}`, 2);
  const { httpServeOptions } = await import('./commands/serve.js');
  const httpOptions = httpServeOptions(values as unknown as ServeFlags);
  if (values.project !== undefined) preloadTypeScript();
  const { openCallEnvironment } = await import('./call-environment.js');
  const { McpToolServer, serveHttp, serveStdio, HttpServeError } = await import('@toolwright/mcp');
  const environment = await openCallEnvironment({ ...configFlags(values), defaultAuditName: `audit-serve-${process.pid}.jsonl`, stateless: mode === 'http' && !httpOptions.sessions }, io);
  const tools = new McpToolServer({ registry: environment.registry, executor: environment.executorOptions });
  for (const toolkit of environment.sessionToolkits) tools.onSessionClosed((id) => toolkit.endSession(id));
  let running: { close(): Promise<void>; url?: string };
  try {
    running = mode === 'stdio' ? await serveStdio(tools) : await serveHttp(tools, httpOptions);
  } catch (error) {
    await environment.close();
    if (error instanceof HttpServeError) throw new CliError(`toolwright serve: ${error.message}`, 2);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new CliError(`toolwright serve: cannot listen on ${httpOptions.host}:${httpOptions.port}: ${(error as Error).message}`, 1);
    throw error;
  }
  if (running.url !== undefined) {
    if (httpOptions.insecureNoAuth && httpOptions.bearerToken === undefined) io.err(`toolwright: WARNING: no authentication on ${httpOptions.host}; anyone who can reach this port can run the tools\n`);
    io.err(`toolwright: serving ${environment.registry.size} tools over MCP at ${running.url}\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (mode === 'stdio') process.stdin.once('end', stop);
  });
  await running.close();
  await environment.close();
  return 0;
}

async function runPolicy(args: readonly string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const [sub, ...rest] = args;
  const { openToolEnvironment, loadPolicySource } = await import('./call-environment.js');
  if (sub === 'check') {
    const { values, positionals } = parse(rest, { config: { type: 'string' } }, true);
    if (positionals.length > 1) throw new CliError('toolwright policy check takes one policy file.', 2);
    const { settings, registry } = openToolEnvironment({ ...configFlags(values), ...(positionals[0] !== undefined ? { policy: positionals[0] } : {}) }, io);
    if (!settings.policy) throw new CliError('toolwright policy check takes a policy file (or reads "policy" from toolwright.config.json).', 2);
    const policy = loadPolicySource(settings.policy, registry);
    io.out(`${'file' in settings.policy ? positionals[0] ?? settings.policy.file : `${settings.policy.configFile} $.policy`}: ${policy.rules.length} rule(s), every example holds\n`);
    return 0;
  }
  if (sub !== 'explain') throw new CliError(`toolwright policy takes 'explain' or 'check'.\n\n${USAGE}`, 2);
  const { values, positionals } = parse(rest, {
    args: { type: 'string', default: '{}' },
    policy: { type: 'string' },
    project: { type: 'string', short: 'p' },
    format: { type: 'string', default: 'text' },
    config: { type: 'string' },
  }, true);
  const [tool, ...extra] = positionals;
  if (!tool || extra.length > 0) throw new CliError('toolwright policy explain takes exactly one tool name.', 2);
  const { settings, env, registry } = openToolEnvironment(configFlags(values), io);
  if (!settings.policy) throw new CliError('toolwright policy explain needs --policy <file> (or "policy" in toolwright.config.json).', 2);
  const { explainPolicy } = await import('./commands/policy.js');
  const { coreToolsRiskLevels, coreToolsPathResolvers } = await import('@toolwright/core-tools');
  const result = explainPolicy(registry, loadPolicySource(settings.policy, registry), tool, values.args as string, values.format as string, coreToolsRiskLevels(env), settings.executor.riskMode, coreToolsPathResolvers(env));
  io.out(`${result.text}\n`);
  return 0;
}

/** The flags that lay over toolwright.config.json (see config/cli-settings.ts). */
function configFlags(values: Record<string, unknown>): ConfigFlags & { project?: string } {
  const flags: ConfigFlags & { project?: string } = {};
  for (const key of ['config', 'workspace', 'policy', 'audit', 'project'] as const) {
    if (typeof values[key] === 'string') flags[key] = values[key] as string;
  }
  return flags;
}

function parse(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>, allowPositionals = false) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
}
