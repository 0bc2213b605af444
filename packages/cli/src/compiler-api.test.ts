import { describe, expect, it, vi } from 'vitest';

// TypeScript 7's package root: its version and nothing else.
vi.mock('typescript', () => ({ default: { version: '7.0.2' } }));

describe('requireCompilerApi', () => {
  it("names the project's TypeScript and what to do when it has no compiler API", async () => {
    const { requireCompilerApi } = await import('./compiler-api.js');
    expect(() => requireCompilerApi('toolwright build')).toThrow(
      "toolwright build reads the project through TypeScript's compiler API, which this project's TypeScript 7.0.2 (the native compiler) does not have. On TypeScript 7, `toolwright emit --module src/tools.generated.ts` reads the project through the native compiler's own API",
    );
    expect(() => requireCompilerApi('toolwright build')).toThrow('toolwright build itself needs TypeScript 6 (npm i -D typescript@6.0.3).');
  });
});
