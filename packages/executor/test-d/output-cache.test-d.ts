import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd';
import type { ExecutorOptions, OutputCacheOptions, ToolCallResult } from '@toolwright/executor';

// The cache is opt-in per executor: every field has a default.
expectAssignable<OutputCacheOptions>({});
expectAssignable<OutputCacheOptions>({ dir: '.toolwright/cache', maxBytes: 1 << 20, maxMemoryChars: 1 << 16 });
expectNotAssignable<OutputCacheOptions>({ dir: 1 });
expectAssignable<Partial<ExecutorOptions>>({ cache: { dir: 'cache' } });

// A hit says which store answered, on a completed result only.
declare const result: ToolCallResult;
if (result.status === 'completed') expectType<'disk' | 'memory' | undefined>(result.cacheHit);
else expectError(result.cacheHit);
