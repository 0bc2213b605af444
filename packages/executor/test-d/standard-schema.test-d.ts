// A tool's parameters and result as Standard Schemas, and the gate's judgement carried to a call's run.
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { parametersStandardSchema, returnsStandardSchema } from '@toolwright/executor';
import type { CallContext, CallToJudge, JudgedCall, ToolExecutor, ToolStandardSchema } from '@toolwright/executor';
import type { ToolDeclaration } from '@toolwright/schema';

declare const declaration: ToolDeclaration;
declare const executor: ToolExecutor;

interface ReadFileArgs {
  path: string;
  limit?: number;
}

const parameters = parametersStandardSchema<ReadFileArgs>(declaration);
expectType<ToolStandardSchema<ReadFileArgs>>(parameters);
expectAssignable<StandardSchemaV1<ReadFileArgs>>(parameters);
expectAssignable<StandardJSONSchemaV1<ReadFileArgs>>(parameters);
expectType<ReadFileArgs>({} as StandardSchemaV1.InferOutput<typeof parameters>);
expectType<ToolStandardSchema<Record<string, unknown>>>(parametersStandardSchema(declaration));
expectType<ToolStandardSchema<unknown> | undefined>(returnsStandardSchema(declaration));
expectType<Record<string, unknown>>(parameters['~standard'].jsonSchema.input({ target: 'draft-07' }));

const judged = executor.judgeCall({ id: 'call_1', name: 'file_write', arguments: { path: 'notes.txt' } });
expectType<JudgedCall>(judged);
expectType<'allow' | 'ask' | 'deny'>(judged.decision);
expectAssignable<CallContext>({ judged, preApproved: (_call, argsHash) => argsHash === judged.argsHash });
// The call is judged by its arguments as a value, not as the model's text.
expectNotAssignable<CallToJudge>({ id: 'call_1', name: 'file_write', arguments: '{"path":"notes.txt"}' });
