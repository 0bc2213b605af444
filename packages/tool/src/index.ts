export { tool, isMarkedTool } from './tool.js';
export type { ToolMethodDecorator, CheckedTool, ToolSignatureError } from './tool.js';
export { TOOL_METADATA_KEY } from './tool-metadata.js';
export type { ToolFunction, ToolSignatureCheck, JsonCompatible, NoJsonForm } from './type-checks.js';
export type { ToolParameters, ToolResult } from './tool-types.js';
export { getToolDeclaration, attachToolDeclaration, TOOL_DECLARATION, TOOL_OPTIONS } from '@toolwright/schema';
export type { Integer, ToolDeclaration, ToolOptions } from '@toolwright/schema';
export { getToolContext, runWithToolContext } from './tool-context.js';
export type { JudgedPaths, OutputBudget, ToolCallContext, ToolProgress, WorkspaceRules } from './tool-context.js';
export type {
  AskAnswer,
  AskAnswers,
  AskQuestion,
  AskQuestions,
  ClientRoot,
  ElicitAnswer,
  ElicitField,
  ElicitSchema,
  ElicitedValue,
  FormQuestion,
  RootsAnswer,
  RootsQuestion,
  SampleAnswer,
  SampledMessage,
  SampleMessage,
  SampleQuestion,
  TitledChoice,
} from './tool-questions.js';
export type { ToolArgs, ToolArgsMap } from './tool-args.js';
export { content, image, audio, resourceLink, embeddedResource, isToolContent, TOOL_CONTENT } from './tool-content.js';
export type { ToolContent, ContentBlock, TextBlock, ImageBlock, AudioBlock, ResourceLinkBlock, EmbeddedResourceBlock } from './tool-content.js';
