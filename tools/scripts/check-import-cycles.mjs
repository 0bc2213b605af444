#!/usr/bin/env node
// Import circles inside each package's src/ (tests included), found with the TypeScript parser. A
// circle through `import type` counts too: a reader following it goes round in the same circle.
// Package-to-package imports are a DAG already (check-boundaries.mjs); this follows relative ones, file to file and
// folder to folder inside a package.
// Usage: node tools/scripts/check-import-cycles.mjs [dir ...]   (default: packages/*/src)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ts = createRequire(import.meta.url)('typescript');
const root = path.resolve(import.meta.dirname, '../..');

const dirs =
  process.argv.length > 2
    ? process.argv.slice(2).map((d) => path.resolve(d))
    : fs
        .readdirSync(path.join(root, 'packages'))
        .map((p) => path.join(root, 'packages', p, 'src'))
        .filter((d) => fs.existsSync(d));

const files = dirs.flatMap((dir) => [...walk(dir)]);
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const cycles = stronglyConnected(graph).filter((group) => group.length > 1 || graph.get(group[0]).includes(group[0]));

// One level up: the rooms of a package — each folder of its src/ and each file beside them — must not import each
// other round either. A file of `steps/` importing the root's `call-state.ts` while the root imports `steps/` is an
// arrow back up: the folders no longer read from the top down. Tests are not rooms (they may reach anywhere).
const roomOf = (file) => {
  const dir = dirs.find((candidate) => file.startsWith(`${candidate}${path.sep}`));
  return dir === undefined ? file : path.join(dir, path.relative(dir, file).split(path.sep)[0]);
};
const isTest = (file) => /\.test\.(c|m)?tsx?$/.test(file) || file.split(path.sep).includes('test-support');
const roomArrows = new Map();
for (const [file, targets] of graph) {
  if (isTest(file)) continue;
  for (const target of targets) {
    if (isTest(target) || roomOf(file) === roomOf(target)) continue;
    const key = `${roomOf(file)}\0${roomOf(target)}`;
    if (!roomArrows.has(key)) roomArrows.set(key, []);
    roomArrows.get(key).push([file, target]);
  }
}
const roomGraph = new Map();
for (const key of roomArrows.keys()) {
  const [from, to] = key.split('\0');
  if (!roomGraph.has(from)) roomGraph.set(from, []);
  if (!roomGraph.has(to)) roomGraph.set(to, []);
  roomGraph.get(from).push(to);
}
const roomCircles = stronglyConnected(roomGraph).filter((group) => group.length > 1);

if (roomCircles.length > 0) {
  console.error(`check-import-cycles: ${roomCircles.length} circle${roomCircles.length > 1 ? 's' : ''} of folders (arrows back up inside a package):`);
  for (const group of roomCircles) {
    const members = new Set(group);
    console.error(`- ${group.map((room) => path.relative(root, room)).join(', ')} import each other:`);
    for (const [key, arrows] of roomArrows) {
      const [from, to] = key.split('\0');
      if (members.has(from) && members.has(to))
        for (const [file, target] of arrows) console.error(`    ${path.relative(root, file)} -> ${path.relative(root, target)}`);
    }
  }
}

if (cycles.length > 0) {
  console.error(`check-import-cycles: ${cycles.length} import circle${cycles.length > 1 ? 's' : ''}:`);
  for (const group of cycles) {
    console.error(
      `- ${describeCycle(group)
        .map((f) => path.relative(root, f))
        .join(' -> ')}`,
    );
    if (group.length > 2) console.error(`  (${group.length} files import each other round: ${group.map((f) => path.relative(root, f)).join(', ')})`);
  }
  process.exit(1);
}
if (roomCircles.length > 0) process.exit(1);
console.log(`check-import-cycles: no import circle in ${files.length} files, and none between the folders of a package`);

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* walk(full);
    } else if (/\.(c|m)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** Relative imports, re-exports, `import type`, `import('...')` types and dynamic imports of a file, resolved to files. */
function importsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [
    ...new Set(
      specifiers
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(path.dirname(file), s))
        .filter(Boolean),
    ),
  ];
}

function resolve(from, specifier) {
  const base = path.resolve(from, specifier);
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => known.has(c) || (fs.existsSync(c) && fs.statSync(c).isFile() && /\.(c|m)?tsx?$/.test(c)));
}

/** Tarjan's algorithm, iterative (deep import chains must not overflow the stack). */
function stronglyConnected(edges) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const groups = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1);
      const [node, next] = frame;
      const targets = edges.get(node) ?? [];
      if (next < targets.length) {
        frame[1]++;
        const target = targets[next];
        if (!edges.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work.at(-1)[0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        groups.push(group.sort());
      }
    }
  }
  return groups;
}

/** One concrete circle through a strongly connected group, from its first file back to it (breadth-first: the shortest). */
function describeCycle(group) {
  const members = new Set(group);
  const start = group[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const pathBack = [node];
        while (pathBack[0] !== start) pathBack.unshift(previous.get(pathBack[0]));
        return [...pathBack, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [...group, start];
}
