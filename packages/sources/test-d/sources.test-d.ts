import { expectError, expectType } from 'tsd';
import { source, type HttpToolOptions, type SubprocessToolOptions, type WasmToolOptions } from '@toolwright/sources';
import type { Integer } from '@toolwright/tool';

// A source form returns its signature's type: the tool can be called like any async function.
const slugify = source.wasm<(text: string, maxLength?: Integer) => Promise<{ slug: string }>>('./slugify.wasm', { fuel: 1_000_000 });
expectType<(text: string, maxLength?: Integer) => Promise<{ slug: string }>>(slugify);
expectType<Promise<{ slug: string }>>(slugify('Hello'));

type WordStats = (text: string) => Promise<{ words: Integer }>;
expectType<WordStats>(source.subprocess<WordStats>(['python3', './word_stats.py'], { cpuSeconds: 5, env: { LANG: 'C.UTF-8' }, tier: 'read-only' }));
expectType<(value: number) => Promise<number>>(source.http<(value: number) => Promise<number>>(new URL('https://example.com/x'), { headers: { a: 'b' } }));

// A signature with no JSON form is a ToolSignatureError, which cannot be called.
const callback = source.http<(onDone: () => void) => Promise<void>>('https://example.com/x');
expectError(callback(() => {}));

// A signature must return a Promise; options are each source's own (and the tool's).
expectError(source.wasm<(text: string) => string>('./a.wasm'));
expectError(source.wasm<(text: string) => Promise<string>>('./a.wasm', { cpuSeconds: 5 }));
expectError(source.subprocess<(text: string) => Promise<string>>(['a'], { headers: {} }));
expectError(source.http<(text: string) => Promise<string>>('https://example.com', { fuel: 1 }));
expectError(source.wasm<(text: string) => Promise<string>>('./a.wasm', { tier: 'sometimes' }));

const wasmOptions: WasmToolOptions = { export: 'run', maxMemory: '16MB' };
const subprocessOptions: SubprocessToolOptions = { cwd: '.', processes: 4, network: false };
const httpOptions: HttpToolOptions = { allowAddresses: ['127.0.0.1'], allowPorts: [8080], maxResponseBytes: 1024 };
void [wasmOptions, subprocessOptions, httpOptions];
