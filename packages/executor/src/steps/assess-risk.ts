import type { ToolDeclaration } from '@toolwright/schema';
import type { RiskLevel, RiskMode } from '../ports.js';
import type { CallContext, ToolExecutor } from '../tool-executor.js';

/** Step 4's input: how risky this call is under the executor's risk mode. */
export function assessCallRisk(executor: ToolExecutor, declaration: ToolDeclaration, args: Record<string, unknown>, context: CallContext): { level: RiskLevel; reason: string } {
  const mode = executor.options.riskMode ?? 'autorun_no_public';
  const riskLevel = executor.options.riskLevel?.[declaration.name];
  const assess = executor.options.assessRisk ?? defaultRiskAssessment;
  return assess({ declaration, args, mode, context, ...(riskLevel ? { riskLevel } : {}) });
}

const SCOPED_PUBLIC = /^public:\//;

/**
 * The seed's risk model: privileged tools are always risky (enforced, in every mode); under
 * `autorun_none` every side-effecting call is risky; under `autorun_no_public` (default) a
 * side-effecting call that names a `public:/` path is risky; `autorun_all` runs the rest.
 * A per-tool `riskLevel(args, ctx)` may raise a call to risky, never lower an enforced one.
 */
export function defaultRiskAssessment(input: {
  declaration: ToolDeclaration; args: Record<string, unknown>; mode: RiskMode; context: CallContext;
  riskLevel?: (args: Record<string, unknown>, context: CallContext) => RiskLevel;
}): { level: RiskLevel; reason: string } {
  const { declaration, args, mode } = input;
  const tier = declaration.metadata.tier;
  if (tier === 'privileged') return { level: 'risky', reason: `'${declaration.name}' is privileged and always needs approval` };
  if (input.riskLevel?.(args, input.context) === 'risky') return { level: 'risky', reason: `'${declaration.name}' judged this call risky` };
  if (tier === 'read-only' || mode === 'autorun_all') return { level: 'safe', reason: 'auto-run' };
  if (mode === 'autorun_none') return { level: 'risky', reason: `risk mode autorun_none asks before every side-effecting call` };
  const publicPath = Object.values(args).find((value) => typeof value === 'string' && SCOPED_PUBLIC.test(value));
  if (publicPath !== undefined) return { level: 'risky', reason: `it changes the public scope (${String(publicPath)})` };
  return { level: 'safe', reason: 'auto-run' };
}
