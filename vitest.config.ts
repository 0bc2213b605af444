import { defineConfig } from 'vitest/config';

// Tests import each package's TypeScript source through the `@toolwright/source` export condition,
// so `vitest` needs no prior build; the e2e suites use the built packages, as users do.
export default defineConfig({
  resolve: { conditions: ['@toolwright/source', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@toolwright/source', 'node', 'import', 'default'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts', 'tools/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/fixtures/**', '**/.tmp-*/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
