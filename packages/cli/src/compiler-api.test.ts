import { describe, expect, it } from 'vitest';
import { requireCompilerApi } from './compiler-api.js';

// TypeScript 7's package root: its version and nothing else.
const typeScript7 = { version: '7.0.2' };

describe('requireCompilerApi', () => {
  it("names the project's TypeScript and what to do when it has no compiler API", () => {
    expect(() => requireCompilerApi('toolwright build', typeScript7)).toThrow(
      "toolwright build reads the project through TypeScript's compiler API, which this project's TypeScript 7.0.2 (the native compiler) does not have. On TypeScript 7, `toolwright emit --module src/tools.generated.ts` reads the project through the native compiler's own API",
    );
    expect(() => requireCompilerApi('toolwright build', typeScript7)).toThrow('toolwright build itself needs TypeScript 6 (npm i -D typescript@6.0.3).');
  });

  it('passes with the TypeScript 6 this CLI loads', () => {
    expect(() => requireCompilerApi('toolwright build')).not.toThrow();
  });
});
