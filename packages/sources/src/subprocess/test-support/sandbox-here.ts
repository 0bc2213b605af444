import { controlGroupSupport, probeSandbox, type SandboxMode } from '@toolwright/sandbox';

/**
 * The sandbox mode the tests run their tools in: `TOOLWRIGHT_TEST_SANDBOX` (`off` runs them on the host, as on a
 * machine without bubblewrap, as the shell's tests do), else `auto`.
 */
export function testSandboxMode(): SandboxMode {
  const mode = process.env.TOOLWRIGHT_TEST_SANDBOX;
  return mode === 'off' || mode === 'required' ? mode : 'auto';
}

/**
 * What this machine (and the tests' sandbox mode) gives a subprocess tool: bubblewrap (a sandbox that really ran here), and which control group
 * controllers count the program's processes and memory together. Tests that need one say so and skip only where it
 * is really missing.
 */
export async function sandboxHere(): Promise<{ bubblewrap: boolean; reason?: string; pids: boolean; memory: boolean }> {
  const support = testSandboxMode() === 'off' ? { available: false as const, reason: 'TOOLWRIGHT_TEST_SANDBOX is off' } : await probeSandbox();
  const groups = controlGroupSupport();
  const controllers = groups.available ? groups.controllers : [];
  return {
    bubblewrap: support.available,
    ...(support.available ? {} : { reason: support.reason }),
    pids: support.available && controllers.includes('pids'),
    memory: support.available && controllers.includes('memory'),
  };
}
