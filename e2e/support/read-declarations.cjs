// Loads built modules in a plain Node process (as a user's program would) and prints, as JSON,
// the declaration attached to each named export: `node read-declarations.cjs <dir> <module>#<export.path> ...`
const path = require('node:path');
const dir = process.argv[2];
const { getToolDeclaration } = require(require.resolve('@toolwright/tool', { paths: [dir] }));
const result = {};
for (const spec of process.argv.slice(3)) {
  const [file, exportPath] = spec.split('#');
  let value = require(path.resolve(dir, file));
  for (const key of exportPath.split('.')) value = value?.[key];
  result[spec] = getToolDeclaration(value) ?? null;
}
process.stdout.write(JSON.stringify(result));
