// The approval and risk contracts hosts implement: answers, risk reports, refusals as data.
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type { ApprovalAnswer, ExecutorOptions, GatePreview, RiskLevelFn, ToolError, ToolExecutor } from '@toolwright/executor';

declare const executor: ToolExecutor;

expectAssignable<ApprovalAnswer>({ kind: 'once', confirmProtected: true });
expectAssignable<ApprovalAnswer>({ kind: 'once', confirmEscalation: true });
expectAssignable<ApprovalAnswer>({ kind: 'always', confirmEscalation: true, confirmProtected: true });
expectAssignable<ApprovalAnswer>({ kind: 'unavailable', message: 'the client cannot ask its user' });
expectNotAssignable<ApprovalAnswer>({ kind: 'unavailable' });
expectNotAssignable<ApprovalAnswer>({ kind: 'maybe' });

expectAssignable<RiskLevelFn>(() => 'safe');
expectAssignable<RiskLevelFn>(() => ({ level: 'risky', protectedPaths: ['.git/config'] }));
expectNotAssignable<RiskLevelFn>(() => ({ protectedPaths: ['.git/config'] }));
expectAssignable<RiskLevelFn>(() => ({ level: 'risky', escalation: 'it runs "npm install" outside the kernel sandbox' }));
expectNotAssignable<RiskLevelFn>(() => ({ level: 'risky', escalation: true }));
expectAssignable<ExecutorOptions['riskLevel']>({ file_write: () => ({ level: 'risky', reason: 'it changes .git/config', protectedPaths: ['.git/config'] }) });

expectType<GatePreview>(executor.previewGate('file_write', { path: '.git/config' }));
expectAssignable<ToolError>({ code: 'protected_path_unapproved', paths: ['.env'], approval: 'blanket' });
expectAssignable<ToolError>({ code: 'escalation_unapproved', escalation: 'it runs "npm install" outside the kernel sandbox', approval: 'none' });
expectType<string | undefined>(executor.previewGate('shell_exec', { command: 'npm install', escalate: true }).escalation);
expectAssignable<ToolError>({ code: 'tool_failed', message: 'no such file', errorCode: 'not_found' });
expectAssignable<ToolError>({ code: 'internal_error', stage: 'risk', message: 'ENOENT', ran: false, errorCode: 'ENOENT' });
