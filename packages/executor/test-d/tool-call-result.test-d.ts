import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd';
import type { ArgumentIssue, PolicyProof, ToolCall, ToolCallResult, ToolError } from '@toolwright/executor';

declare const result: ToolCallResult;
if (result.status === 'completed') {
  expectType<unknown>(result.output);
  expectType<string>(result.outputHash);
  expectType<number>(result.originalBytes);
  expectError(result.error);
} else {
  expectType<ToolError>(result.error);
  expectError(result.output);
}
expectType<PolicyProof | undefined>(result.proof);

// A completed result must carry its output; a failed one its error.
expectNotAssignable<ToolCallResult>({ callId: 'c', tool: 't', status: 'completed', content: '', truncated: false, durationMs: 1 });
expectNotAssignable<ToolCallResult>({ callId: 'c', tool: 't', status: 'error', content: '', truncated: false, durationMs: 1 });

// Arguments are text, or a value a host parsed already.
expectAssignable<ToolCall>({ id: 'c', name: 't', arguments: '{"a":1}' });
expectAssignable<ToolCall>({ id: 'c', name: 't', arguments: { a: 1 } });
expectNotAssignable<ToolCall>({ id: 'c', name: 't', arguments: 42 });

// Issues are data: a kind, never prose.
expectAssignable<ArgumentIssue>({ path: '$.limit', kind: 'type', expected: ['integer'], received: 'string' });
expectNotAssignable<ArgumentIssue>({ path: '$.limit', message: 'must be an integer' });
