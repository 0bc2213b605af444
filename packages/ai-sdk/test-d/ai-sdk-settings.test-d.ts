// What toAISdkSettings gives is what generateText, streamText and ToolLoopAgent take.
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type { ToolApprovalConfiguration, ToolApprovalStatus, ToolSet } from 'ai';
import { toAISdkSettings, toAISdkTools, type AISdkSettings, type AISdkToolApproval } from '@toolwright/ai-sdk';
import type { ToolExecutor } from '@toolwright/executor';

declare const executor: ToolExecutor;

const settings = toAISdkSettings(executor, { context: { sessionId: 's1' } });
expectType<AISdkSettings>(settings);
expectType<ToolSet>(settings.tools);
expectAssignable<ToolApprovalConfiguration<ToolSet, unknown>>(settings.toolApproval);
expectType<ToolApprovalStatus>(settings.toolApproval({ toolCall: { toolCallId: 'c1', toolName: 'file_write', input: { path: 'a' } } }));
expectNotAssignable<AISdkToolApproval>((options: { toolCall: { toolCallId: number } }) => options.toolCall.toolCallId);
expectType<ToolSet>(toAISdkTools(executor));
