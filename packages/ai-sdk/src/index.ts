export { toAISdkTools, ToolCallFailedError } from './to-ai-sdk-tools.js';
export type { AISdkToolsOptions } from './to-ai-sdk-tools.js';
