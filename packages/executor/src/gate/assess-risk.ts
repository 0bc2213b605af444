import type { ToolDeclaration } from '@toolwright/schema';
import type { RiskAssessment, RiskLevel, RiskMode, RiskReport } from '../ports.js';
import type { CallContext, ExecutorOptions } from '../executor-options.js';
import { escalationOf } from './escalation-of.js';

/** The executor's settings that decide a call's risk. */
export type RiskSettings = Pick<ExecutorOptions, 'riskMode' | 'riskLevel' | 'assessRisk'>;

/** The safety gate's input: how risky this call is under the executor's risk mode. */
export function assessCallRisk(settings: RiskSettings, declaration: ToolDeclaration, args: Record<string, unknown>, context: CallContext): RiskAssessment {
  const mode = settings.riskMode ?? 'autorun_no_public';
  const riskLevel = settings.riskLevel?.[declaration.name];
  const assess = settings.assessRisk ?? defaultRiskAssessment;
  return assess({ declaration, args, mode, context, ...(riskLevel ? { riskLevel } : {}) });
}

const SCOPED_PUBLIC = /^public:\//;

/**
 * The default risk model: privileged tools are always risky (enforced, in every mode); under
 * `autorun_none` every side-effecting call is risky; under `autorun_no_public` (default) a
 * side-effecting call that names a `public:/` path is risky; `autorun_all` runs the rest.
 * A per-tool `riskLevel(args, ctx)` may raise a call to risky, never lower an enforced one, and may
 * report the protected paths the call touches and whether it is an escalation (runs outside the
 * sandbox) — those make it risky in every mode, whatever the tier. An answer that is neither `safe`
 * nor `risky` counts as risky.
 */
export function defaultRiskAssessment(input: {
  declaration: ToolDeclaration;
  args: Record<string, unknown>;
  mode: RiskMode;
  context: CallContext;
  riskLevel?: (args: Record<string, unknown>, context: CallContext) => RiskLevel | RiskReport;
}): RiskAssessment {
  const { declaration, args, mode } = input;
  const tier = declaration.metadata.tier;
  const report = input.riskLevel ? readReport(input.riskLevel(args, input.context)) : undefined;
  if (report?.protectedPaths.length || report?.escalation) {
    const paths = report.protectedPaths;
    const touches = paths.length > 0 ? `it touches the protected path${paths.length > 1 ? 's' : ''} ${paths.join(', ')}` : undefined;
    return {
      level: 'risky',
      reason: report.reason ?? [report.escalation, touches].filter(Boolean).join('; '),
      ...(paths.length > 0 ? { protectedPaths: paths } : {}),
      ...(report.escalation ? { escalation: report.escalation } : {}),
    };
  }
  if (tier === 'privileged') return { level: 'risky', reason: `'${declaration.name}' is privileged and always needs approval` };
  if (report && report.level !== 'safe') return { level: 'risky', reason: report.reason ?? `'${declaration.name}' judged this call risky` };
  if (tier === 'read-only' || mode === 'autorun_all') return { level: 'safe', reason: 'auto-run' };
  if (mode === 'autorun_none') return { level: 'risky', reason: `risk mode autorun_none asks before every side-effecting call` };
  const publicPath = Object.values(args).find((value): value is string => typeof value === 'string' && SCOPED_PUBLIC.test(value));
  if (publicPath !== undefined) return { level: 'risky', reason: `it changes the public scope (${publicPath})` };
  return { level: 'safe', reason: 'auto-run' };
}

/** A risk hook's answer, read defensively: a malformed answer is risky, never safe; its escalation as `escalationOf` reads it. */
function readReport(answer: unknown): { level: RiskLevel | 'invalid'; reason?: string; protectedPaths: string[]; escalation?: string } {
  if (answer === 'safe' || answer === 'risky') return { level: answer, protectedPaths: [] };
  if (typeof answer !== 'object' || answer === null) return { level: 'invalid', protectedPaths: [] };
  const { level, reason, protectedPaths, escalation } = answer as { [K in keyof RiskReport]?: unknown };
  const paths = Array.isArray(protectedPaths) ? protectedPaths.filter((p): p is string => typeof p === 'string' && p !== '') : [];
  const worded = escalationOf(escalation);
  return {
    level: level === 'safe' || level === 'risky' ? level : 'invalid',
    ...(typeof reason === 'string' && reason !== '' ? { reason } : {}),
    protectedPaths: paths,
    ...(worded !== undefined ? { escalation: worded } : {}),
  };
}
