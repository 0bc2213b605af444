#!/usr/bin/env node
// `toolwright emit --watch --typescript 7` on a generated project (the build-time benchmark's corpus, TypeScript 7
// beside it as the project's own): the time from writing a one-file change to the line saying the manifest was
// written again, for each installed TypeScript 7 line. Figures, never assertions.
// Goal (issue 18): <= 50 ms at 2,000 tools. Usage: node tools/bench/emit-watch-7.mjs [--size 2000] [--edits 9]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateProject } from './generate-project.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'packages/cli/dist/bin.js');
const { values } = parseArgs({ options: { size: { type: 'string', default: '2000' }, edits: { type: 'string', default: '9' } } });
const size = Number(values.size);
const edits = Number(values.edits);

function watchTimes(dir) {
  const file = path.join(dir, 'src', 'tools0.ts');
  const original = fs.readFileSync(file, 'utf8');
  const child = spawn(process.execPath, [cli, 'emit', '--watch', '--typescript', '7', '-p', 'tsconfig.json', '--out', 'tools.watch.json'], { cwd: dir });
  return new Promise((resolve, reject) => {
    const times = [];
    let buffer = '';
    let writtenAt = 0;
    const onLine = (line) => {
      if (!/ tools from /.test(line)) return;
      if (writtenAt) times.push(performance.now() - writtenAt);
      writtenAt = 0;
      if (times.length >= edits) {
        fs.writeFileSync(file, original);
        child.kill('SIGINT');
        resolve(times);
        return;
      }
      setTimeout(() => {
        fs.writeFileSync(file, `${original}\n// edit ${times.length}\nexport const marker${times.length} = ${times.length};\n`);
        writtenAt = performance.now();
      }, 400);
    };
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk) => {
        buffer += chunk;
        for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
          onLine(buffer.slice(0, at));
          buffer = buffer.slice(at + 1);
        }
      });
    child.on('exit', (code) => times.length < edits && reject(new Error(`emit --watch exited with ${code}`)));
  });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
for (const line of ['7.0', '7.1']) {
  const typescript = path.join(root, 'tools/typescript-7', line, 'node_modules/typescript');
  if (!fs.existsSync(path.join(typescript, 'package.json'))) {
    console.log(`TypeScript ${line}: not installed (node tools/typescript-7/install.mjs)`);
    continue;
  }
  const dir = path.join(import.meta.dirname, '.work', `watch-${size}-ts${line}`);
  generateProject(dir, size);
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(typescript, path.join(dir, 'node_modules', 'typescript'));
  const times = await watchTimes(dir);
  const m = median(times);
  console.log(
    `TypeScript ${line}, ${size} tools: re-emit after a one-file change, median ${m.toFixed(0)} ms over ${edits} edits [${times.map((t) => t.toFixed(0)).join(', ')}] -> goal <= 50 ms ${m <= 50 ? 'met' : 'NOT met'}`,
  );
}
