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
require(built);
