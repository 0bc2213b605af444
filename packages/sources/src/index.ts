export { source, setSourceBase } from './source.js';
export type { Sources } from './source.js';
export type { HttpToolOptions, SubprocessToolOptions, WasmToolOptions } from './source-options.js';
export { SourceError } from './source-error.js';
export type { SourceErrorCode, SourceLimit } from './source-error.js';
