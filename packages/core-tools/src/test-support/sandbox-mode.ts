import type { SandboxMode } from '@toolwright/sandbox';

/**
 * The sandbox mode the shell tests run in: `TOOLWRIGHT_TEST_SANDBOX` (`off` runs the judge alone,
 * as on a machine without bubblewrap; CI runs the shell suites in both modes), else `auto`.
 */
export function testSandboxMode(): SandboxMode {
  const mode = process.env.TOOLWRIGHT_TEST_SANDBOX;
  return mode === 'off' || mode === 'required' ? mode : 'auto';
}
