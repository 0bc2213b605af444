/**
 * The compiler options of the projects the e2e suites write: a Node.js project as `tsc --init` starts one (strict,
 * nodenext, lib's declarations not checked), compiling `src/`, with lib es2022 alone — a tool project needs no
 * `lib.dom.d.ts`, and parsing and binding it cost every build, emit and serve of a test project ~0.6 CPU-s.
 * A suite adds what its project needs (`types`, `outDir`, plugins).
 */
export const PROJECT_OPTIONS = {
  target: 'es2022',
  lib: ['es2022'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  skipLibCheck: true,
  rootDir: 'src',
} as const;
