import { LIST_FORMATS } from './list-formats.js';

/** The usage text: `toolwright --help`, and each command's `--help` is its section (see help/command-help.ts). */
export const USAGE = `Usage: toolwright <command> [options]

Commands:
  init    Set up a project for tools: a tsconfig with the transformer entries (added to an existing
          one), src/tools.ts, toolwright.config.json, toolwright.policy.json and npm scripts
          (build, emit, serve). Existing files are kept and named; --force overwrites them
          (a tsconfig is only ever added to).
          --force                    overwrite existing files and npm scripts of the same name
          --typescript 6|7           set up for this TypeScript (default: the major the folder
                                     resolves, else 6); 7: emit --module, then tsc (tsgo)
  emit    Write every @tool declaration of a project as JSON (and/or a module).
          --project, -p <tsconfig>   project to analyse (default: tsconfig.json)
          --out <file>               manifest path (default: tools.json beside the tsconfig)
          --module <file.ts>         also write a module that attaches the declarations,
                                     for builds that do not run TypeScript transformers
          --check                    fail when the files on disk differ (CI drift check), naming
                                     the changes that break calls valid against tools.json
          --report [table|json]      print each tool's tokens (o200k_base) in each dialect (openai,
                                     openai-strict, anthropic, gemini, mcp), the totals, and what
                                     each lowering loses (stdout)
          --budget <tokens>          fail when the largest dialect's total is over this many tokens
          --budget-dialect <d>       hold this dialect's total to --budget instead
          --search-index <file>      also write the tools' search index (serve --search-index loads it
                                     instead of indexing every tool on the first tool_search)
          --watch                    re-emit after every change
          --keep-going               when some tools are refused, report them and still write
                                     the tools that compiled (the exit code is still 1)
          --typescript 6|7           the compiler that reads the project (default: the major of
                                     the typescript the project resolves; 7 runs the native
                                     compiler through its own API)
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
          --yes                      approve calls that need approval (not a protected path, nor
                                     running outside the sandbox: a person confirms those at a terminal)
          --cache                    answer a pure, read-only, effect-free tool's call from the per-user
                                     cache (~/.cache/toolwright/outputs) when the same call ran before
                                     (after policy and approval; audited as a hit)
  replay <audit.jsonl> --out <file.ts> | --run
          Turn the recorded calls of an audit log into a typed module, or re-run them.
          --out <file.ts>            write each call with validated arguments as a constant typed by
                                     its tool's current signature: tsc fails on a call that no longer fits
          --run                      re-run the completed calls of read-only, pure or deterministic tools
                                     that neither write nor spawn through the executor (policy and
                                     approval apply, the output cache never answers) and compare output
                                     hashes; a diff for each mismatch; other calls are skipped, saying why
          --project, -p <tsconfig>   the project whose tools the log names (besides the core tools)
          --workspace <dir>          --run: the workspace the calls are confined to (default: .)
          --policy <file>            --run: allow/ask/deny rules (JSON)
          --audit <file|none>        --run: the replay's own audit log (default:
                                     <workspace>/.toolwright/audit-replay.jsonl)
          --yes                      --run: approve calls that need approval (not a protected path, nor
                                     running outside the sandbox)
  serve --mcp stdio | --mcp http [--port N] [--host H] [--sessions]
          Serve the core tools and a project's own over the Model Context Protocol; every call goes
          through the executor (policy, approval by elicitation, audit, truncation).
          --project, -p <tsconfig>   include a project's own tools
          --workspace <dir>          the workspace the tools are confined to (default: .)
          --policy <file>            allow/ask/deny rules (JSON)
          --audit <file|none>        audit log (default: <workspace>/.toolwright/audit-serve-<pid>.jsonl)
          --sessions                 HTTP with sessions: approvals by elicitation and cancellation
                                     (needs session affinity behind a balancer; default: stateless)
          --tasks <file|none>        where the tasks of tools declared with task are kept (default:
                                     <workspace>/.toolwright/tasks.jsonl; none: in memory)
          --cache                    answer read-only, effect-free tools' calls: pure ones from the per-user
                                     cache (~/.cache/toolwright/outputs), deterministic ones from memory per
                                     session (none without one); after the gate
          --defer <glob>             deferred loading: these tools and those declared defer are left out of
                                     tools/list, which offers tool_search; a client's search loads what it finds
                                     for that client (stdio, an HTTP session), then list_changed (repeatable or a
                                     comma list: github_*,jira_*)
          --search-index <file>      search with the index emit --search-index wrote: its entries of
                                     unchanged tools are kept, the other tools indexed beside them
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
          --state-key-env <NAME>     seal 2026-07-28 clients' answers between rounds with $NAME (>= 32 bytes; the
                                     same in every process behind one balancer; default: a key of this process)
          --request-timeout <s>      time to send a whole request (default 30); slower gets 408
  policy explain <tool> --args '<json>' --policy <file>
          Show which rule decides a call, and every rule's verdict.
          --project, -p <tsconfig>   the project whose tools to load
  policy check <file>
          Load a policy and check its rules' match / not_match examples.
  doctor  Check what this machine and configuration give the tools: Node.js, the config file, the
          workspace, the shell's kernel sandbox (bubblewrap) and ripgrep. Exit code 1 when the
          configuration requires what is missing (shell.sandbox "required" without a sandbox).
          --workspace <dir>          the workspace to check (default: .)
          --config <file>            the config file to read
  help [command]  Show this text, or a command's help (also: toolwright <command> --help).
  version         Print Toolwright's version (also: --version, -v).

Configuration: call, replay --run, serve, list, policy and doctor read toolwright.config.json (--config <file>, else the
  one in the current directory, else in --workspace); flags override it. See docs/configuration.md.

Exit codes: 0 ok, 1 findings (diagnostics, drift, a failed call, a replay that differs), 2 usage errors.
`;
