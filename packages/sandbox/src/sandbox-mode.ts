import type { SandboxSupport } from './probe.js';

/**
 * `auto`: use the kernel sandbox where it works, else (where this machine cannot make one, not where it could not
 * just now: see `SandboxSupport`'s `transient`) run with the command judge alone and warn;
 * `required`: refuse to run commands where it does not work; `off`: never use it.
 */
export type SandboxMode = 'auto' | 'required' | 'off';

/** What a mode means on this machine. */
export type SandboxDecision =
  { run: 'sandboxed'; support: Extract<SandboxSupport, { available: true }> } | { run: 'unsandboxed'; warning?: string } | { run: 'refused'; reason: string };

export function decideSandbox(mode: SandboxMode, support: SandboxSupport): SandboxDecision {
  if (mode === 'off') return { run: 'unsandboxed' };
  if (support.available) return { run: 'sandboxed', support };
  if (support.transient)
    return { run: 'refused', reason: `the kernel sandbox could not be made just now (${support.reason}); the command was not run: try again` };
  if (mode === 'required') return { run: 'refused', reason: `the kernel sandbox is required but unavailable: ${support.reason}` };
  return {
    run: 'unsandboxed',
    warning: `the kernel sandbox is unavailable (${support.reason}); shell commands are confined only by the command judge`,
  };
}
