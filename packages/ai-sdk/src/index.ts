export { toAISdkTools, ToolCallFailedError } from './to-ai-sdk-tools.js';
export type { AISdkToolsOptions } from './to-ai-sdk-tools.js';
export { toAISdkSettings } from './to-ai-sdk-settings.js';
export type { AISdkSettings, AISdkToolApproval } from './to-ai-sdk-settings.js';
