export { tool, isMarkedTool, TOOL_OPTIONS } from './tool.js';
export type { ToolMethodDecorator, CheckedTool, ToolSignatureError } from './tool.js';
export type { ToolFunction, ToolSignatureCheck, JsonCompatible, NoJsonForm } from './type-checks.js';
export type { ToolParameters, ToolResult } from './tool-types.js';
export { getToolDeclaration, attachToolDeclaration, TOOL_DECLARATION } from '@toolwright/schema';
export type { Integer, ToolDeclaration, ToolOptions } from '@toolwright/schema';
export { getToolContext, runWithToolContext } from './tool-context.js';
export type { OutputBudget, ToolCallContext, ToolProgress } from './tool-context.js';
export type { ToolArgs, ToolArgsMap } from './tool-args.js';
