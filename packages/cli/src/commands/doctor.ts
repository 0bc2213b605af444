import { controlGroupSupport, decideSandbox, probeSandbox, type SandboxDecision } from '@toolwright/sandbox';
import { ripgrepVersion } from '@toolwright/core-tools';
import { loadCliSettings, type ConfigFlags } from '../config/cli-settings.js';
import { openWorkspace } from '../call-environment.js';
import { implicitWorkspaceProblem } from '../config/implicit-workspace.js';

/** What `toolwright doctor` found: one line per item, and whether everything the configuration asks for is there. */
export interface DoctorReport {
  lines: string[];
  ok: boolean;
}

/**
 * Node.js, the configuration, the workspace, the shell and its kernel sandbox, ripgrep. Not ok when
 * the configuration requires something this machine lacks (`shell.sandbox: "required"` without a
 * working sandbox).
 */
export async function diagnose(flags: ConfigFlags): Promise<DoctorReport> {
  const settings = loadCliSettings(flags);
  const workspace = openWorkspace(settings.workspace).rootOf('private');
  const shell = settings.coreTools.shell ?? { backend: 'host' };
  const implicit = settings.workspaceFrom === 'cwd' ? implicitWorkspaceProblem(workspace) : undefined;
  const lines = [
    `node        ${process.version}`,
    `config      ${settings.configFile ?? 'none (defaults)'}`,
    `workspace   ${workspace}${implicit ? ` — refused: ${implicit}` : ''}`,
  ];
  let ok = implicit === undefined;
  if (shell.backend === 'disabled') {
    lines.push('shell       disabled');
  } else {
    const mode = shell.sandbox ?? 'auto';
    lines.push(`shell       ${shell.backend} backend, sandbox: ${mode}${shell.network ? ', network allowed' : ''}`);
    const support = await probeSandbox();
    const decision = decideSandbox(mode, support);
    lines.push(`sandbox     ${sandboxLine(decision, support.available ? `${support.version} at ${support.path}` : support.reason)}`);
    if (decision.run === 'refused') ok = false;
    if (decision.run === 'sandboxed') lines.push(`limits      ${limitsLine()}`);
  }
  lines.push(`ripgrep     ${ripgrepVersion() ?? 'not found: file_search uses its built-in engine'}`);
  return { lines, ok };
}

function sandboxLine(decision: SandboxDecision, detail: string): string {
  switch (decision.run) {
    case 'sandboxed':
      return `${detail}: every command runs in the kernel sandbox`;
    case 'refused':
      return `error: ${decision.reason}; shell_exec refuses every command (install bubblewrap, or set shell.sandbox to "auto")`;
    case 'unsandboxed':
      return decision.warning
        ? `warning: ${decision.warning} (install bubblewrap: apt-get install bubblewrap)`
        : 'off: commands are confined only by the command judge (shell.sandbox is "off")';
  }
}

/**
 * Whether the kernel keeps the process and memory limits for each command as a whole, or only per
 * process, and whether commands running beside one being started are paused meanwhile.
 */
function limitsLine(): string {
  const groups = controlGroupSupport();
  if (!groups.available) return `per process only (ulimit): no control group per command here (${groups.reason})`;
  const has = (controller: string) => groups.controllers.some((name) => name === controller);
  const whole = [has('pids') && 'processes', has('memory') && 'memory'].filter((name): name is string => typeof name === 'string');
  const parts = [whole.length > 0 ? `${whole.join(' and ')} counted for each command as a whole (a control group)` : 'per process only'];
  parts.push(has('freezer') ? 'running commands paused while a sandbox is made' : 'running commands not paused while a sandbox is made');
  for (const entry of groups.missing) parts.push(`no ${entry.controller} group (${entry.reason})`);
  return parts.join('; ');
}
