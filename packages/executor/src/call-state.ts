import type { RegisteredTool } from '@toolwright/registry';
import type { JudgedPaths } from '@toolwright/tool';
import type { CallAudit } from './call-audit.js';
import type { CallContext } from './executor-options.js';
import type { PolicyProof } from './ports.js';
import type { CacheSlot } from './cache/output-cache.js';
import type { NormalisedOutput } from './output/normalize-output.js';
import type { ContentBlock } from '@toolwright/tool';
import type { Truncation } from './output/truncate-output.js';
import type { ToolCall, ToolCallResult } from './tool-call.js';
import type { PipelineStage } from './tool-error.js';

/**
 * One call on its way through the pipeline: what the steps so far have established. Each field is
 * set by the step named beside it and read only by later steps.
 */
export class CallState {
  /** lookup */
  tool!: RegisteredTool;
  /** read arguments, decode, validate, before-hooks */
  args!: Record<string, unknown>;
  /** hash arguments: the canonical JSON of `args` and its sha-256 */
  argsJson = '';
  argsHash = '';
  /** doom-loop check: why the gate must ask whatever policy and risk say */
  forceAsk: string | undefined = undefined;
  /** safety gate */
  proof: PolicyProof | undefined = undefined;
  /** safety gate: a person confirmed this call's escalation (`confirmEscalation`), so its tool may leave its sandbox */
  escalationConfirmed = false;
  /** safety gate: the path spellings and protected paths the call was judged by, which its tool holds its use to */
  judgedPaths: JudgedPaths | undefined = undefined;
  /** cache lookup: where a cacheable call's output is looked up and kept (`ExecutorOptions.cache`) */
  cacheSlot: CacheSlot | undefined = undefined;
  /** run, after-hooks */
  output: unknown = undefined;
  /** normalise output */
  normalised!: NormalisedOutput;
  /** normalise output: a content result's blocks, checked (from the JSON copy of the output) */
  blocks: ContentBlock[] | undefined = undefined;
  /** model content: the text the model reads */
  content!: Truncation;

  constructor(
    readonly call: ToolCall,
    readonly context: CallContext,
    readonly audit: CallAudit,
  ) {}
}

/** What a step answers: `undefined` to go on, or the call's result to end it. */
export type StepOutcome = ToolCallResult | undefined;

/**
 * One step of the pipeline, with the stage an unexpected throw in it is reported as. A step that waits
 * returns a promise; with `settle`, the promise's value is handed to it (one wait, not two chained).
 */
export interface PipelineStep {
  readonly stage: PipelineStage;
  run(state: CallState): StepOutcome | Promise<unknown>;
  /**
   * What a waiting step's value means for the call (without it, the value is the step's outcome). A
   * step with `settle` returns a promise from `run` every time: its value is always handed here.
   */
  settle?(state: CallState, value: unknown): StepOutcome | Promise<StepOutcome>;
}
