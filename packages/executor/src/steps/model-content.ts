import type { PipelineStep } from '../call-state.js';
import type { FullOutputStore } from '../full-output-store.js';
import { truncateOutput } from '../output/truncate-output.js';

/**
 * Step: the text the model reads. A tool with `renderForModel` words its own output (numbered lines,
 * an exit code and output blocks, ...); any other output is read as its JSON (a string as itself).
 * Past `maxChars` the text keeps its head and tail and says what was cut; the full text is then kept
 * for the host under the call's id (when the store keeps any).
 */
export function modelContentStep(maxChars: number, fullOutputs: FullOutputStore): PipelineStep {
  return {
    stage: 'output',
    run(state) {
      const { tool } = state;
      // A tool's renderer words its data; content blocks are worded as such (`contentText`).
      const text = tool.renderForModel && !state.blocks ? rendered(tool.renderForModel(state.output)) : state.normalised.text;
      const keptAs = fullOutputs.capacity > 0 ? state.call.id : undefined;
      state.content = truncateOutput(text, maxChars, keptAs);
      if (state.content.truncated && keptAs !== undefined) fullOutputs.set(keptAs, text);
      return undefined;
    },
  };
}

/** A renderer's answer must be text: anything else is the tool's bug, reported as such. */
function rendered(text: unknown): string {
  if (typeof text === 'string') return text;
  throw new TypeError(`the tool's renderForModel returned ${text === null ? 'null' : typeof text}, not text`);
}
