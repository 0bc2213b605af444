#!/usr/bin/env node
// The `toolwright` command. This file is committed (not built) so that npm can link the bin when the
// workspace is installed, before `dist/` exists; it loads the built CLI.
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const built = path.join(__dirname, '..', 'dist', 'bin.js');
if (!fs.existsSync(built)) {
  process.stderr.write(`toolwright: the CLI is not built yet (${built} is missing); run \`npm run build\` first.\n`);
  process.exit(2);
}

// Node ≥ 22.1 keeps the code V8 compiled for the modules the CLI loads (a command starts ~5% sooner), in the folder
// Toolwright's processes share, never TMPDIR's (src/compile-cache-folder.ts); TOOLWRIGHT_NO_CODE_CACHE=1 turns it off.
// Node 20 has no such cache (typescript-code-cache.ts keeps the compiler's).
require(path.join(__dirname, '..', 'dist', 'compile-cache-folder.js')).enableCompileCache();
require(built);
