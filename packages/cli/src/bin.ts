#!/usr/bin/env node
import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolwright: internal error (please report): ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 70;
  },
);
