import { attachToolDeclaration, type ToolDeclaration } from '@toolwright/schema';
import { describe, expect, it } from 'vitest';
import { fromFunction, lazyTool, withModelRendering } from './registered-tool.js';
import { ToolRegistry } from './tool-registry.js';

const declaration = (name: string): ToolDeclaration => ({
  name, description: `${name} for tests`, parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, parameterOrder: [],
  metadata: { tier: 'read-only', sideEffects: ['none'], capabilities: [], tags: [], determinism: 'deterministic', timeoutMs: 1000 },
} as unknown as ToolDeclaration);

describe(withModelRendering, () => {
  it('gives the registered tool the renderer, however it is registered', async () => {
    const count = async () => ({ n: 3 });
    withModelRendering(count, (output) => `${output.n} items`);
    expect(fromFunction(declaration('count'), count).renderForModel?.({ n: 2 })).toBe('2 items');

    class Kit {
      async list() { return ['a', 'b']; }
    }
    attachToolDeclaration(Kit.prototype.list, declaration('list'));
    withModelRendering(Kit.prototype.list, (names) => names.join('\n'));
    const [tool] = new ToolRegistry().registerToolkit(new Kit());
    expect(tool!.renderForModel?.(await tool!.invoke({}))).toBe('a\nb');
  });

  it('leaves tools without one to the JSON of their output', () => {
    expect(fromFunction(declaration('plain'), async () => 1).renderForModel).toBeUndefined();
    expect('renderForModel' in lazyTool(declaration('lazy'), async () => async () => 1)).toBe(false);
  });
});
