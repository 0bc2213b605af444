import type { SafetyTier, ToolDeclaration } from '@toolwright/schema';
import type { WorkspaceRules } from '@toolwright/tool';
import type { SubprocessToolOptions } from '../../source-options.js';
import type { SourceRequest } from '../../source-request.js';

/** How a test calls a subprocess tool: the tool's tier, limits and the call's workspace and signal. */
export interface TestCall {
  tier?: SafetyTier;
  timeoutMs?: number;
  maxMemoryBytes?: number;
  workspace?: string;
  /** The capabilities granted to the call explicitly (absent: everything is granted). */
  capabilities?: string[];
  /** What the workspace keeps from tools, as the CLI hands it to every call. */
  rules?: WorkspaceRules;
  signal?: AbortSignal;
  input?: Record<string, unknown>;
}

/** A tool's declaration as the transformer would emit it for a subprocess tool taking `text`. */
export function subprocessDeclaration(name: string, call: TestCall = {}): ToolDeclaration {
  const timeoutMs = call.timeoutMs ?? 30_000;
  return {
    name,
    description: `The test tool ${name}.`,
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: [], additionalProperties: false },
    parameterOrder: ['text'],
    metadata: {
      tier: call.tier ?? 'side-effecting',
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

/** The request the source hands `runSubprocess` for one call of `argv` started in `cwd`. */
export function subprocessRequest(
  argv: string[],
  cwd: string,
  options: SubprocessToolOptions = {},
  call: TestCall = {},
): SourceRequest<{ argv: string[]; cwd: string }, SubprocessToolOptions> {
  const declaration = subprocessDeclaration('test_tool', call);
  const signal = call.signal ?? AbortSignal.timeout(declaration.metadata.timeoutMs);
  return {
    tool: declaration.name,
    target: { argv, cwd },
    options,
    declaration,
    input: call.input ?? {},
    signal,
    context:
      call.workspace !== undefined || call.capabilities !== undefined
        ? ({
            ...(call.workspace !== undefined ? { workspace: call.workspace } : {}),
            ...(call.capabilities !== undefined ? { capabilities: call.capabilities } : {}),
            ...(call.rules !== undefined ? { workspaceRules: call.rules } : {}),
            signal,
          } as SourceRequest<unknown, unknown>['context'])
        : undefined,
  };
}
