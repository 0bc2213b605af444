import type { ToolDeclaration } from '@toolwright/schema';

export interface HookCall {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  declaration: ToolDeclaration;
}

/** What a before-hook may answer: nothing (go on), a block with the reason the model sees, or new arguments. */
export type BeforeHookResult = void | undefined | { block: string } | { args: Record<string, unknown> };
/** What an after-hook may answer: nothing, or a replacement output. */
export type AfterHookResult = void | undefined | { output: unknown };

export interface ToolHooks {
  name: string;
  beforeCall?(call: HookCall): BeforeHookResult | Promise<BeforeHookResult>;
  afterCall?(call: HookCall, output: unknown): AfterHookResult | Promise<AfterHookResult>;
}
