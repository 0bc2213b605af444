// Lint: typescript-eslint's type-checked rules on the packages' sources (read in one program, tsconfig.lint.json),
// its syntactic rules on tests, e2e and scripts. Formatting is Prettier's
// (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SOURCES = ['packages/*/src/**/*.ts'];
const TESTS = ['**/*.test.ts', '**/test-support/**', '**/__snapshots__/**'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      // Inputs of the transformer's own tests: many are deliberately wrong.
      'packages/transformer/fixtures/**',
      'packages/*/test-d/**',
      'e2e/**/fixtures/**',
      'e2e/basic-project/**',
      'e2e/broken-project/**',
      'examples/**/generated/**',
      // Projects the benchmarks generate (git-ignored).
      'tools/bench/.work/**',
      // Folders the tests make and remove while they run (git-ignored): `npm test` lints beside vitest.
      '**/.tmp-*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: SOURCES,
    ignores: TESTS,
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Tools and hooks are user code returning anything; the executor treats their results as `unknown`.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Nest injects by the constructor parameter types that emitDecoratorMetadata emits as values: with
    // these options consistent-type-imports knows such imports are values, not types.
    files: ['examples/nestjs/**'],
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
  },
  {
    // Tests read parsed JSON and provider payloads by path; typing every probe would only restate the assertion.
    files: [...TESTS, 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        globalThis: 'readonly',
        global: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
