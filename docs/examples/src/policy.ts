import { tool } from '@toolwright/tool';
import { ToolRegistry } from '@toolwright/registry';
import { ToolExecutor, explainDecision, formatExplanation, loadPolicy } from '@toolwright/executor';

/**
 * Runs a shell command.
 * @param command The command line.
 */
export const shellExec = tool(async function shellExec(command: string) {
  return `ran: ${command}`;
}, { tier: 'privileged' });

async function main() {
  const registry = new ToolRegistry();
  registry.register(shellExec);
  // Rules are evaluated deny → ask → allow, whatever their order; examples are checked at load.
  const policy = loadPolicy({
    rules: [
      { allow: 'shell_exec(npm test *)', match: ['npm test -- --run'], not_match: ['npm test; rm -rf ~'] },
      { deny: 'shell_exec(*rm -rf*)', reason: 'no recursive deletes' },
    ],
  }, (name) => registry.get(name)?.declaration);
  const executor = new ToolExecutor({ registry, policy, approve: async () => ({ kind: 'once' }) });
  const denied = await executor.executeToolCall({ id: 'c1', name: 'shell_exec', arguments: '{"command":"rm -rf /"}' });
  console.log(denied.status, denied.content);
  console.log(formatExplanation(explainDecision(policy, 'shell_exec', { command: 'npm test -- --run' }, registry.get('shell_exec')?.declaration)));
}

void main();
