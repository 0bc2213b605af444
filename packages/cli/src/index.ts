export { main } from './cli.js';
export { emit } from './commands/emit.js';
export type { EmitOptions, EmitResult } from './commands/emit.js';
export { emitWatch } from './commands/emit-watch.js';
export { emitWatchTypeScript7 } from './commands/emit-typescript-7.js';
export { projectTypeScript } from './project-typescript.js';
export { EMITTING_AFTER_CHANGE } from './watch-sources.js';
export type { ProjectTypeScript } from './project-typescript.js';
export type { WatchHandle } from './commands/emit-watch.js';
export type { ModuleEntry } from './generated-module.js';
export { findConfigFile, loadConfigFile, CONFIG_FILE_NAME } from './config/load-config.js';
export type { LoadedConfig } from './config/load-config.js';
export type {
  ToolwrightConfig,
  WorkspaceSection,
  ShellSection,
  WebSection,
  SearchSection,
  VaultSection,
  AuditSection,
  RepeatedCallsSection,
  ToolsSection,
} from './config/toolwright-config.js';
