import { explainDecision, formatExplanation, nearestNames, parseArguments, type Policy } from '@toolwright/executor';
import type { ToolRegistry } from '@toolwright/registry';
import { CliError } from '../cli-error.js';

/** `toolwright policy explain`: which rule decides a call, and every rule's verdict on it. */
export function explainPolicy(registry: ToolRegistry, policy: Policy, tool: string, argsText: string, format: string): { text: string; decision: string } {
  if (format !== 'text' && format !== 'json') throw new CliError(`Unknown --format '${format}'. Use text or json.`, 2);
  const declaration = registry.get(tool)?.declaration;
  if (!declaration && !/[*?[{]/.test(tool)) {
    const near = nearestNames(tool, registry.names());
    throw new CliError(`There is no tool named '${tool}'.${near.length ? ` Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''}`, 2);
  }
  const parsed = parseArguments(argsText);
  if (!parsed.ok) throw new CliError(`--args is not a JSON object: ${parsed.error.code === 'invalid_json' ? parsed.error.message : parsed.error.code}`, 2);
  const explanation = explainDecision(policy, tool, parsed.value, declaration);
  return { decision: explanation.decision, text: format === 'json' ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation) };
}
