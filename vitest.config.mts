import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowestFilesReporter } from './tools/vitest/slowest-files-reporter.mjs';
import { toolwrightVitePlugin } from './tools/vitest/toolwright-vite-plugin.mjs';

// Tests import each package's TypeScript source through the `@toolwright/source` export condition,
// so `vitest` needs no prior build; the e2e suites use the built packages, as users do.
export default defineConfig({
  // The core tools are @tool toolkits: compile them as tspc does (decorators lowered, declarations attached).
  plugins: [toolwrightVitePlugin({ include: /packages\/core-tools\/src\/(?!.*\.test\.ts$).*\.ts$/ })],
  resolve: {
    conditions: ['@toolwright/source', 'node', 'import', 'default'],
    // core-tools has no `@toolwright/source` condition (tsc must never compile it without the
    // transformer); under vitest the plugin above compiles its source, so point imports there.
    alias: [{ find: /^@toolwright\/core-tools$/, replacement: new URL('./packages/core-tools/src/index.ts', import.meta.url).pathname }],
  },
  ssr: { resolve: { conditions: ['@toolwright/source', 'node', 'import', 'default'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts', 'tools/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/fixtures/**', '**/.tmp-*/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the CPUs: one file at a time on a 2-core machine, while most files wait
    // on the processes they start (the CLI, shells, sandboxes). One worker per CPU keeps both cores busy.
    maxWorkers: Math.max(2, os.availableParallelism()),
    setupFiles: ['./tools/vitest/property-limits.mts'],
    globalSetup: ['./tools/vitest/wasm-modules.mts'],
    reporters: ['default', new SlowestFilesReporter()],
  },
});
