import { defineCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { USAGE } from '../usage.js';
import { configFlags } from './config-flags.js';
import { withCacheFlag } from '../with-cache-flag.js';

/** `toolwright call <tool> --args <json>`: one call through the full executor, printed as JSON. */
export const callCommand = defineCommand({
  options: {
    args: { type: 'string' },
    project: { type: 'string', short: 'p' },
    workspace: { type: 'string' },
    config: { type: 'string' },
    policy: { type: 'string' },
    audit: { type: 'string' },
    yes: { type: 'boolean', default: false },
    cache: { type: 'boolean', default: false },
  },
  positionals: true,
  async run(values, positionals, io) {
    const [tool, ...extra] = positionals;
    if (!tool || extra.length > 0) throw new CliError(`toolwright call takes exactly one tool name.\n\n${USAGE}`, 2);
    if (values.args === undefined) throw new CliError(`toolwright call needs --args '<json>' (or --args - to read standard input).`, 2);
    const { openCallEnvironment } = await import('../call-environment.js');
    const { callTool } = await import('./call.js');
    const { escapeTerminalControls } = await import('@toolwright/executor');
    const environment = await openCallEnvironment(configFlags(values), io);
    // Only a shell command is affected by the sandbox: other calls do not pay for the probe.
    if (tool.startsWith('shell_')) await environment.warnWithoutSandbox();
    try {
      const report = await callTool(environment.registry, {
        tool,
        args: values.args,
        yes: values.yes,
        workspace: environment.workspaceRoot,
        // --cache: read-only, effect-free tools' outputs in the per-user cache folder, looked up after the gate.
        executor: withCacheFlag(environment.executorOptions, values.cache),
      });
      // A tool's output may hold terminal or bidi controls: written as \uXXXX escapes (still JSON).
      io.out(`${escapeTerminalControls(JSON.stringify(report, null, 2))}\n`);
      return report.status === 'completed' ? 0 : 1;
    } finally {
      await environment.close();
    }
  },
});
