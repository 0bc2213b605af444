#!/usr/bin/env node
// The public surface is a decision: every name a package's `src/index.ts` exports is used outside the package
// (imported from `@toolwright/<name>` by another package, a test of another package, an example, an e2e test or a
// script, or named by a script that loads the built package), or documented (named in the package's README or in
// docs/), or marked `@internal` on its declaration (and then left out of the published `.d.ts` by
// `stripInternal`). Anything else is cut from the index or documented.
// Values are checked (functions, classes, constants, enums); a type alone (an interface, a type alias) is public as
// part of the signatures that name it.
// Usage: node tools/scripts/check-exports.mjs [--list] [--root DIR]   (--list prints where each export is used)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ts = createRequire(import.meta.url)('typescript');
const rootAt = process.argv.indexOf('--root');
const root = rootAt > 0 ? path.resolve(process.argv[rootAt + 1]) : path.resolve(import.meta.dirname, '../..');
const list = process.argv.includes('--list');

/** Files under `dir` with one of `extensions`, skipping build output and installed packages. */
function* walk(dir, extensions) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full, extensions);
    else if (extensions.some((extension) => entry.name.endsWith(extension))) yield full;
  }
}

const parse = (file) => ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** The names `file` exports, each with the declaration that makes it (for `@internal`), following `export *`. */
function exportsOf(file, seen = new Set()) {
  const names = new Map();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = parse(file);
  const resolve = (specifier) => {
    const base = path.resolve(path.dirname(file), specifier);
    return [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
  };
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const target = statement.moduleSpecifier ? resolve(statement.moduleSpecifier.text) : undefined;
      if (!statement.exportClause) {
        if (target) for (const [name, origin] of exportsOf(target, seen)) names.set(name, origin);
        continue;
      }
      if (ts.isNamespaceExport(statement.exportClause)) {
        names.set(statement.exportClause.name.text, { file: target ?? file, name: undefined });
        continue;
      }
      for (const element of statement.exportClause.elements)
        names.set(element.name.text, {
          file: target ?? file,
          name: (element.propertyName ?? element.name).text,
          typeOnly: statement.isTypeOnly || element.isTypeOnly,
        });
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) continue; // the package's entry point itself
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        names.set(declaration.name.getText(source), { file, name: declaration.name.getText(source) });
    else if (statement.name) names.set(statement.name.text, { file, name: statement.name.text });
  }
  return names;
}

/** The statement that declares `origin.name` in `origin.file`, following re-exports. */
function declarationOf(origin, depth = 0) {
  if (!origin.name || depth > 8) return undefined;
  const source = parse(origin.file);
  for (const statement of source.statements) {
    const declared = ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.some((declaration) => declaration.name.getText(source) === origin.name)
      : statement.name?.text === origin.name;
    if (declared) return statement;
  }
  const again = exportsOf(origin.file).get(origin.name);
  return again && again.file !== origin.file ? declarationOf(again, depth + 1) : undefined;
}

/** Whether the declaration carries `@internal` in its JSDoc. */
const isInternal = (declaration) => declaration !== undefined && ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');

/** Whether the export is a type only (an interface or a type alias): it is public as part of the values whose signatures name it. */
const isTypeOnly = (declaration) => declaration !== undefined && (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration));

const packages = [];
for (const dir of fs.readdirSync(path.join(root, 'packages'))) {
  const manifestFile = path.join(root, 'packages', dir, 'package.json');
  const index = path.join(root, 'packages', dir, 'src', 'index.ts');
  if (!fs.existsSync(manifestFile) || !fs.existsSync(index)) continue;
  packages.push({ name: JSON.parse(fs.readFileSync(manifestFile, 'utf8')).name, dir: path.join(root, 'packages', dir), exports: exportsOf(index) });
}

// Uses: named imports from `@toolwright/<x>` (and its subpaths) in every TypeScript file outside package x.
const imported = new Map(packages.map((pkg) => [pkg.name, new Map()]));
const codeFiles = [
  ...walk(path.join(root, 'packages'), ['.ts', '.mts']),
  ...walk(path.join(root, 'e2e'), ['.ts', '.mts']),
  ...walk(path.join(root, 'examples'), ['.ts', '.mts']),
  ...walk(path.join(root, 'tools'), ['.ts', '.mts']),
];
for (const file of codeFiles) {
  const source = parse(file);
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const pkg = packages.find((candidate) => node.moduleSpecifier.text === candidate.name || node.moduleSpecifier.text.startsWith(`${candidate.name}/`));
      if (pkg && !file.startsWith(`${pkg.dir}${path.sep}`)) {
        const names = [];
        const clause = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
        if (clause && (ts.isNamedImports(clause) || ts.isNamedExports(clause)))
          for (const element of clause.elements) names.push((element.propertyName ?? element.name).text);
        if (clause && ts.isNamespaceImport(clause)) names.push(...namespaceUses(source, clause.name.text));
        for (const name of names) imported.get(pkg.name).set(name, path.relative(root, file));
      }
    }
    // `const { a, b } = await import('@toolwright/x')`, or a namespace: `const x = await import(...)`, `x.a`.
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const specifier = node.arguments[0].text;
      const pkg = packages.find((candidate) => specifier === candidate.name || specifier.startsWith(`${candidate.name}/`));
      let holder = node.parent;
      while (holder && (ts.isAwaitExpression(holder) || ts.isParenthesizedExpression(holder))) holder = holder.parent;
      if (pkg && !file.startsWith(`${pkg.dir}${path.sep}`) && holder && ts.isVariableDeclaration(holder)) {
        const names = ts.isObjectBindingPattern(holder.name)
          ? holder.name.elements.map((element) => (element.propertyName ?? element.name).getText(source))
          : namespaceUses(source, holder.name.getText(source));
        for (const name of names) imported.get(pkg.name).set(name, path.relative(root, file));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** `ns.name` reads in `source` of the namespace `ns`. */
function namespaceUses(source, ns) {
  return [...source.text.matchAll(new RegExp(`\\b${ns}\\.([A-Za-z_$][\\w$]*)`, 'g'))].map((match) => match[1]);
}

// Scripts that load a built package by path (`require('.../packages/core-tools/dist/index.js')`) name what they use.
const scripts = [...walk(path.join(root, 'tools'), ['.mjs', '.cjs', '.js']), ...walk(path.join(root, 'e2e'), ['.mjs', '.cjs', '.js'])].map((file) => ({
  file: path.relative(root, file),
  text: fs.readFileSync(file, 'utf8'),
}));
const docs = [...walk(path.join(root, 'docs'), ['.md']), path.join(root, 'README.md')]
  .filter((file) => fs.existsSync(file))
  .map((file) => ({ file: path.relative(root, file), text: fs.readFileSync(file, 'utf8') }));

const problems = [];
let checked = 0;
for (const pkg of packages) {
  const readmeFile = path.join(pkg.dir, 'README.md');
  const readme = fs.existsSync(readmeFile) ? [{ file: path.relative(root, readmeFile), text: fs.readFileSync(readmeFile, 'utf8') }] : [];
  const folder = path.basename(pkg.dir);
  for (const [name, origin] of pkg.exports) {
    const declaration = declarationOf(origin);
    if (origin.typeOnly || isTypeOnly(declaration)) continue;
    checked++;
    const word = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`);

    const where =
      imported.get(pkg.name).get(name) ??
      scripts.find((script) => script.text.includes(`packages/${folder}/`) && word.test(script.text))?.file ??
      [...readme, ...docs].find((doc) => word.test(doc.text))?.file ??
      (isInternal(declaration) ? '@internal' : undefined);
    if (list) console.log(`${pkg.name} ${name}: ${where ?? '-'}`);
    if (!where) problems.push(`${pkg.name} exports '${name}', which nothing outside the package uses and no README or doc names`);
  }
}

if (problems.length > 0) {
  console.error(
    `${problems.length} of ${checked} exports are not a decision yet (use them outside the package, document them in the package's README or docs/, mark them @internal, or stop exporting them):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`check-exports: ${checked} exports of ${packages.length} packages, each used outside its package, documented or @internal`);
