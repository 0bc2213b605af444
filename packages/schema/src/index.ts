export type { JsonValue, JsonSchemaTypeName, JsonSchema, ParametersSchema } from './json-schema.js';
export { JSON_SCHEMA_KEYWORD_ORDER } from './json-schema.js';
export type {
  SafetyTier,
  SideEffect,
  Determinism,
  BuiltinToolGroup,
  ToolGroup,
  NetworkBounds,
  ResourceBounds,
  ClientFeature,
  TaskSupport,
  ToolCaller,
  ToolMetadata,
  ToolOptions,
} from './tool-metadata.js';
export {
  SAFETY_TIERS,
  SIDE_EFFECTS,
  CLIENT_FEATURES,
  TASK_SUPPORT,
  TOOL_CALLERS,
  DETERMINISM_LEVELS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TIER,
  DEFAULT_DETERMINISM,
} from './tool-metadata.js';
export type { ArgumentPassing, ToolDeclaration, ToolSource } from './tool-declaration.js';
export type { ToolSourceKind } from './tool-source-kind.js';
export { TOOL_SOURCE_KINDS, SOURCE_OPTION_KEYS } from './tool-source-kind.js';
export type { Integer } from './integer.js';
export { WIRE_NAME_PATTERN, toSnakeCase } from './wire-name.js';
export { parseDuration, parseSize } from './units.js';
export { SEMVER_PATTERN } from './semver.js';
export { TOOL_DECLARATION, TOOL_OPTIONS, getToolDeclaration, attachToolDeclaration } from './declaration-store.js';
