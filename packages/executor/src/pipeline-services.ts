import type { ToolRegistry } from '@toolwright/registry';
import type { ApprovalMemory } from './approval-memory.js';
import type { EventBus } from './events.js';
import type { ExecutorOptions } from './executor-options.js';
import type { FullOutputStore } from './full-output-store.js';
import type { JudgedCalls } from './gate/judged-calls.js';
import type { AuditSink } from './ports.js';
import type { OutputCache } from './cache/output-cache.js';
import type { DoomLoopSettings } from './steps/doom-loop.js';
import type { ParseLimits } from './arguments/parse-arguments.js';
import type { SchemaValidator } from './arguments/schema-validator.js';

/** What the pipeline's steps are built from: the executor's options and the services it owns. */
export interface PipelineServices {
  options: ExecutorOptions & { maxOutputChars: number; heartbeatMs: number };
  registry: ToolRegistry;
  audit: AuditSink;
  events: EventBus;
  validator: SchemaValidator;
  parseLimits: ParseLimits;
  approvals: ApprovalMemory;
  judgedCalls: JudgedCalls;
  fullOutputs: FullOutputStore;
  doomLoop: DoomLoopSettings | undefined;
  /** `ExecutorOptions.cache`, when given. */
  cache?: OutputCache | undefined;
}
