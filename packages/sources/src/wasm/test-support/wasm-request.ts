import path from 'node:path';
import type { SafetyTier, ToolDeclaration } from '@toolwright/schema';
import type { ToolCallContext, ToolProgress, WorkspaceRules } from '@toolwright/tool';
import type { WasmToolOptions } from '../../source-options.js';
import type { SourceRequest } from '../../source-request.js';

/** A test module built by tools/wasm/build-modules.mjs from packages/sources/test-modules/<name>.ts. */
export function testModule(name: string): string {
  return path.join(__dirname, '../../../test-modules/build', `${name}.wasm`);
}

export interface WasmCall {
  input?: Record<string, unknown>;
  options?: WasmToolOptions;
  tier?: SafetyTier;
  timeoutMs?: number;
  maxMemoryBytes?: number;
  /** The call's workspace; absent: the call has no context at all (a direct call). */
  workspace?: string;
  /** The call's explicit capabilities (absent: everything is granted). */
  capabilities?: readonly string[];
  /** What the workspace keeps from tools, as the CLI hands it to every call. */
  rules?: WorkspaceRules;
  signal?: AbortSignal;
  progress?: (update: ToolProgress) => void;
}

/** The declaration of a WebAssembly tool, as the transformer would emit it. */
export function wasmDeclaration(call: WasmCall = {}): ToolDeclaration {
  const timeoutMs = call.timeoutMs ?? 20_000;
  const parameters = Object.keys(call.input ?? {});
  return {
    name: 'wasm_tool',
    description: 'A WebAssembly test tool.',
    parameters: { type: 'object', properties: Object.fromEntries(parameters.map((name) => [name, {}])), required: [], additionalProperties: false },
    parameterOrder: parameters,
    metadata: {
      tier: call.tier ?? 'read-only',
      timeoutMs,
      sideEffects: [],
      capabilities: [],
      determinism: 'maybe',
      resources: { timeoutMs, ...(call.maxMemoryBytes !== undefined ? { maxMemoryBytes: call.maxMemoryBytes } : {}) },
      parallel: false,
      tags: [],
    },
  };
}

/** One call of a WebAssembly tool as `source.wasm` hands it to `runWasm`. */
export function wasmRequest(module: string, call: WasmCall = {}): SourceRequest<string, WasmToolOptions> {
  const declaration = wasmDeclaration(call);
  const signal = call.signal ?? AbortSignal.timeout(declaration.metadata.timeoutMs);
  // The runner reads only the workspace, the capabilities, the signal and progress; a partial context stands in for the executor's.
  const partial: Partial<ToolCallContext> = {
    callId: 'c1',
    toolName: 'wasm_tool',
    signal,
    progress: call.progress ?? (() => {}),
    workspace: call.workspace,
    capabilities: call.capabilities,
    ...(call.rules ? { workspaceRules: call.rules } : {}),
  };
  const direct = call.workspace === undefined && call.progress === undefined && call.capabilities === undefined;
  const context = direct ? undefined : (partial as ToolCallContext);
  return { tool: 'wasm_tool', target: module, options: call.options ?? {}, declaration, input: call.input ?? {}, signal, context };
}
