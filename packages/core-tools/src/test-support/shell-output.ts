import type { ShellResult, ShellTool } from '../tools/shell-exec.js';

/**
 * What a model reads back from one `shell_exec` call, for tests that only ask whether something
 * shows: stdout and stderr together, or the refusal's message.
 */
export async function shellOutput(tool: ShellTool, command: string): Promise<string> {
  try {
    const result = (await tool.shellExec(command)) as ShellResult;
    return `${result.stdout}${result.stderr}`;
  } catch (error) {
    return (error as Error).message;
  }
}
