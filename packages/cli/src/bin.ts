#!/usr/bin/env node
import module from 'node:module';

// Node.js 22.1 and later keep the compiled code of the modules a run loads on disk (in the system's
// temporary folder, or NODE_COMPILE_CACHE): a command loads some 400 modules, and compiling them
// again took a fifth of a short call's time. TOOLWRIGHT_NO_CODE_CACHE=1 (or Node's own
// NODE_DISABLE_COMPILE_CACHE=1) turns it off, as for the compiler (typescript-code-cache.ts). It
// must be on before they load: hence a `require` here, in order, where an `import` would be hoisted.
if (process.env.TOOLWRIGHT_NO_CODE_CACHE !== '1') (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the line above on purpose
import cli = require('./cli.js');

cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolwright: internal error (please report): ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 70;
  },
);
