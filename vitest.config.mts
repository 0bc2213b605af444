import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowestFilesReporter } from './tools/vitest/slowest-files-reporter.mjs';
import { toolwrightVitePlugin } from './tools/vitest/toolwright-vite-plugin.mjs';

const ALL = ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts', 'tools/**/*.test.ts'];
const EXCLUDE = ['**/node_modules/**', '**/dist/**', '**/fixtures/**', '**/.tmp-*/**'];
const OWN_PROCESS = [
  'e2e/**/*.test.ts',
  'packages/sandbox/src/**/*.test.ts',
  'packages/sources/src/**/*.test.ts',
  'packages/core-tools/src/tools/shell-exec*.test.ts',
  'packages/core-tools/src/deny-rules-hide.test.ts',
  'packages/core-tools/src/shell/git-referenced-paths.test.ts',
  'packages/core-tools/src/shell/shell-config.test.ts',
  'packages/core-tools/src/workers/run-worker-job.test.ts',
  'packages/core-tools/src/test-support/event-loop-lag.test.ts',
  'packages/executor/src/audit/audit-log.test.ts',
  'packages/executor/src/audit/audit-rotation.test.ts',
  'packages/executor/src/cache/disk-cache.test.ts',
];

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
    projects: [
      // Files that start processes by the hundred (the CLI, shells, sandboxes), change the process's state (its
      // environment, timers, modules they mock) or hold the kernel's (control groups): each in a process of its own.
      // A fork copies its process's page tables, so a worker grown by the files before it would start each slower.
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, exclude: EXCLUDE, isolate: true } },
      // The rest share their workers' modules (TypeScript, AJV, the packages): each worker loads them once, not
      // once per file (an import phase 37% of these files' time).
      { extends: true, test: { name: 'shared', include: ALL, exclude: [...EXCLUDE, ...OWN_PROCESS], isolate: false } },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the CPUs: one file at a time on a 2-core machine, while most files wait
    // on the processes they start (the CLI, shells, sandboxes). One worker more than the CPUs keeps them busy: with one
    // per CPU, a sixth of the CPU time of a full run on 2 cores was idle (597 s; 3 workers: 572 s, measured back to back).
    maxWorkers: os.availableParallelism() + 1,
    // Tests marked concurrent wait on the processes they start; a Toolwright process runs 5 sandboxed commands at once
    // at most (sandbox admission), and a session shell ended by its test lets go of its place a moment later.
    maxConcurrency: 3,
    setupFiles: ['./tools/vitest/property-limits.mts'],
    globalSetup: ['./tools/vitest/wasm-modules.mts'],
    reporters: ['default', new SlowestFilesReporter()],
  },
});
