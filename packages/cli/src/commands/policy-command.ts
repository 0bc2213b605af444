import { defineCommand, runCommand, type CliIo } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { USAGE } from '../usage.js';
import { configFlags } from './config-flags.js';

/** `toolwright policy check [file]`: loads a policy and checks its rules' examples. */
export const policyCheckCommand = defineCommand({
  options: { config: { type: 'string' } },
  positionals: true,
  async run(values, positionals, io) {
    if (positionals.length > 1) throw new CliError('toolwright policy check takes one policy file.', 2);
    const { openToolEnvironment, loadPolicySource } = await import('../call-environment.js');
    const { settings, registry } = await openToolEnvironment(
      { ...configFlags(values), ...(positionals[0] !== undefined ? { policy: positionals[0] } : {}) },
      io,
    );
    if (!settings.policy) throw new CliError('toolwright policy check takes a policy file (or reads "policy" from toolwright.config.json).', 2);
    const policy = loadPolicySource(settings.policy, registry);
    io.out(
      `${'file' in settings.policy ? (positionals[0] ?? settings.policy.file) : `${settings.policy.configFile} $.policy`}: ${policy.rules.length} rule(s), every example holds\n`,
    );
    return 0;
  },
});

/** `toolwright policy explain <tool> --args <json>`: which rule decides a call, and every rule's verdict. */
export const policyExplainCommand = defineCommand({
  options: {
    args: { type: 'string', default: '{}' },
    policy: { type: 'string' },
    project: { type: 'string', short: 'p' },
    format: { type: 'string', default: 'text' },
    config: { type: 'string' },
  },
  positionals: true,
  async run(values, positionals, io) {
    const [tool, ...extra] = positionals;
    if (!tool || extra.length > 0) throw new CliError('toolwright policy explain takes exactly one tool name.', 2);
    const { openToolEnvironment, loadPolicySource } = await import('../call-environment.js');
    const { settings, env, registry } = await openToolEnvironment(configFlags(values), io);
    if (!settings.policy) throw new CliError('toolwright policy explain needs --policy <file> (or "policy" in toolwright.config.json).', 2);
    const { explainPolicy } = await import('./policy.js');
    const { coreToolsRiskLevels, coreToolsPathResolvers } = await import('@toolwright/core-tools');
    const result = explainPolicy({
      registry,
      policy: loadPolicySource(settings.policy, registry),
      tool,
      argsText: values.args,
      format: values.format,
      hooks: { riskLevel: coreToolsRiskLevels(env), riskMode: settings.executor.riskMode, pathResolvers: coreToolsPathResolvers(env) },
    });
    io.out(`${result.text}\n`);
    return 0;
  },
});

/** `toolwright policy <explain|check> ...`: the subcommand is the first operand. */
export function runPolicy(args: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'check') return runCommand(policyCheckCommand, rest, io);
  if (sub === 'explain') return runCommand(policyExplainCommand, rest, io);
  throw new CliError(`toolwright policy takes 'explain' or 'check'.\n\n${USAGE}`, 2);
}
