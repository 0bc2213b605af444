import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd';
import {
  attachToolDeclaration,
  getToolDeclaration,
  parseDuration,
  toSnakeCase,
  type Integer,
  type JsonSchema,
  type ParametersSchema,
  type SafetyTier,
  type SideEffect,
  type ToolDeclaration,
  type ToolGroup,
  type ToolOptions,
} from '@toolwright/schema';

expectAssignable<SafetyTier>('read-only');
expectNotAssignable<SafetyTier>('dangerous');
expectAssignable<SideEffect>('process-spawn');
expectNotAssignable<SideEffect>('fs-scan');
expectAssignable<ToolGroup>('search');
expectAssignable<ToolGroup>('my-own-group');

expectAssignable<ToolOptions>({ tier: 'privileged', timeout: '5s', sideEffects: ['fs-write'], parallel: false, maxMemory: '256MB' });
expectAssignable<ToolOptions>({ timeout: 5000 });
expectNotAssignable<ToolOptions>({ tier: 'dangerous' });
expectNotAssignable<ToolOptions>({ determinism: 'sometimes' });

expectAssignable<JsonSchema>({ type: ['string', 'null'], enum: ['a', null], description: 'd' });
expectAssignable<JsonSchema>({ anyOf: [{ $ref: '#/$defs/Tree' }], $defs: { Tree: { type: 'object' } } });
expectNotAssignable<JsonSchema>({ type: 'date' });
expectNotAssignable<ParametersSchema>({ type: 'object', properties: {}, required: [] });

declare const declaration: ToolDeclaration;
expectType<ParametersSchema>(declaration.parameters);
expectType<JsonSchema | undefined>(declaration.returns);
expectType<string[]>(declaration.parameterOrder);
expectType<SafetyTier>(declaration.metadata.tier);

const fn = attachToolDeclaration(async (a: string) => a, declaration);
expectType<(a: string) => Promise<string>>(fn);
expectType<ToolDeclaration | undefined>(getToolDeclaration(fn));
expectError(attachToolDeclaration('not a function', declaration));

const count: Integer = 5;
expectAssignable<number>(count);
expectType<number | undefined>(parseDuration('5s'));
expectType<string>(toSnakeCase('readFile'));
