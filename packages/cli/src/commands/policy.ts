import { describeIssue, formatExplanation, nearestNames, parseArguments, ToolExecutor, type ExecutorOptions, type Policy } from '@toolwright/executor';
import type { ToolRegistry } from '@toolwright/registry';
import { coreToolsPathResolvers, coreToolsRiskLevels } from '@toolwright/core-tools';
import { CliError } from '../cli-error.js';
import { openWorkspace } from '../call-environment.js';

/**
 * `toolwright policy explain`: which rule decides a call, every rule's verdict on it, and what the
 * executor then does — the executor's own decision (`ToolExecutor.explainCall`), with the core tools'
 * risk hooks (`riskLevel`) and path resolvers (`pathResolvers`, which policy path rules match) — both
 * bound to the workspace `.` when `riskLevel` is not given, as `toolwright call` binds them — and the
 * config file's risk mode, so explain and `call` agree.
 */
/** A `policy explain` question: the call (tool name and argument text), how to answer, and the executor's hooks. */
export interface PolicyQuestion {
  registry: ToolRegistry;
  policy: Policy;
  tool: string;
  argsText: string;
  format: string;
  /** The risk hooks and path resolvers `call` would use; without `riskLevel`, the core tools' bound to `.`. */
  hooks?: Pick<ExecutorOptions, 'riskLevel' | 'riskMode' | 'pathResolvers'>;
}

export function explainPolicy(question: PolicyQuestion): { text: string; decision: string } {
  const { registry, policy, tool, argsText, format } = question;
  const { riskLevel, riskMode, pathResolvers } = question.hooks ?? {};
  if (format !== 'text' && format !== 'json') throw new CliError(`Unknown --format '${format}'. Use text or json.`, 2);
  const declaration = registry.get(tool)?.declaration;
  if (!declaration && !/[*?[{]/.test(tool)) {
    const near = nearestNames(tool, registry.names());
    throw new CliError(`There is no tool named '${tool}'.${near.length ? ` Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''}`, 2);
  }
  const parsed = parseArguments(argsText);
  if (!parsed.ok)
    throw new CliError(
      `--args is not a usable JSON object: ${parsed.error.code === 'invalid_json' ? parsed.error.message : parsed.error.issues.map((issue) => describeIssue(issue)).join('; ')}`,
      2,
    );
  const hooks = riskLevel !== undefined ? { riskLevel, ...(pathResolvers ? { pathResolvers } : {}) } : coreHooksAt('.');
  const executor = new ToolExecutor({ registry, policy, ...hooks, ...(riskMode !== undefined ? { riskMode } : {}) });
  let explanation;
  try {
    explanation = executor.explainCall(tool, parsed.value);
  } catch (error) {
    throw new CliError(`Cannot assess the risk of this call: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  return { decision: explanation.decision, text: format === 'json' ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation) };
}

function coreHooksAt(root: string): Pick<ExecutorOptions, 'riskLevel' | 'pathResolvers'> {
  const env = { workspace: openWorkspace(root) };
  return { riskLevel: coreToolsRiskLevels(env), pathResolvers: coreToolsPathResolvers(env) };
}
