import path from 'node:path';
import ts from 'typescript';
import { CliError } from '../cli-error.js';
import { inlineJson, TOOLWRIGHT_PLUGINS } from './init-templates.js';

type PluginEntry = Readonly<Record<string, unknown>>;

export interface PluginEdit {
  /** The new text, or undefined when every entry is already there. */
  text: string | undefined;
  /** The entries added, by their `transform` or `name`. */
  added: string[];
}

/**
 * Adds the Toolwright plugin entries a tsconfig lacks by editing its text where TypeScript's own JSON
 * parser places the nodes, so comments, order and formatting stay as they were.
 * `inherited` are the plugins the file gets through `extends`: a `plugins` key written here replaces
 * them, so they are copied into it.
 * @example
 *   { "compilerOptions": { "strict": true } }   -> adds "plugins": [ ...three entries ] after "strict"
 *   "plugins": [{ "name": "other-plugin" }]     -> appends the three entries after the other one
 */
export function addToolwrightPlugins(text: string, fileName: string, inherited: readonly PluginEntry[] = []): PluginEdit {
  const parsed = ts.parseConfigFileTextToJson(fileName, text);
  if (parsed.error) throw new CliError(`${fileName}: cannot add the Toolwright entries: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n')}`, 1);
  const file = ts.parseJsonText(fileName, text);
  const root = file.statements[0]?.expression;
  if (!root || !ts.isObjectLiteralExpression(root)) throw new CliError(`${fileName}: a tsconfig must be a JSON object.`, 1);
  const unit = indentOfLine(text, root.properties[0]?.getStart(file) ?? root.getStart(file)) || '  ';
  const options = property(root, 'compilerOptions');
  if (options !== undefined && !ts.isObjectLiteralExpression(options.initializer)) throw new CliError(`${fileName}: "compilerOptions" must be an object.`, 1);
  const plugins = options && property(options.initializer as ts.ObjectLiteralExpression, 'plugins');
  if (plugins !== undefined && !ts.isArrayLiteralExpression(plugins.initializer))
    throw new CliError(`${fileName}: "compilerOptions.plugins" must be an array.`, 1);
  const present = plugins ? (parsed.config as { compilerOptions: { plugins: unknown[] } }).compilerOptions.plugins.filter(isEntry) : inherited;
  const missing = TOOLWRIGHT_PLUGINS.filter((entry) => !present.some((p) => samePlugin(p, entry)));
  if (missing.length === 0) return { text: undefined, added: [] };
  const added = missing.map((entry) => String(entry.transform ?? entry.name));

  let edits: Edit[];
  if (plugins) {
    const array = plugins.initializer as ts.ArrayLiteralExpression;
    const indent = array.elements[0] ? indentOfLine(text, array.elements[0].getStart(file)) : indentOfLine(text, plugins.getStart(file)) + unit;
    edits = insertItem(text, file, array, missing.map(inlineJson).join(`,\n${indent}`), indent);
  } else {
    const entries = [...present, ...missing];
    const pluginsText = (indent: string) => `"plugins": [\n${entries.map((entry) => `${indent}${unit}${inlineJson(entry)}`).join(',\n')}\n${indent}]`;
    if (options) {
      const object = options.initializer as ts.ObjectLiteralExpression;
      const indent = object.properties[0] ? indentOfLine(text, object.properties[0].getStart(file)) : indentOfLine(text, options.getStart(file)) + unit;
      edits = insertItem(text, file, object, pluginsText(indent), indent);
    } else {
      const indent = unit;
      edits = insertItem(text, file, root, `"compilerOptions": {\n${indent}${unit}${pluginsText(indent + unit)}\n${indent}}`, indent);
    }
  }
  const result = edits.sort((a, b) => b.at - a.at).reduce((out, edit) => `${out.slice(0, edit.at)}${edit.insert}${out.slice(edit.at)}`, text);
  if (ts.parseConfigFileTextToJson(fileName, result).error) throw new Error(`toolwright init made ${fileName} invalid:\n${result}`);
  return { text: result, added };
}

/** The `plugins` a tsconfig inherits through `extends` (and has itself), as TypeScript resolves them. */
export function effectivePlugins(configPath: string): PluginEntry[] {
  const read = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  if (read.error) return [];
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
  return ((parsed.options as { plugins?: unknown[] }).plugins ?? []).filter(isEntry);
}

function isEntry(entry: unknown): entry is PluginEntry {
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry);
}

function samePlugin(present: PluginEntry, wanted: PluginEntry): boolean {
  return wanted.transform !== undefined ? present.transform === wanted.transform : present.name === wanted.name;
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.PropertyAssignment | undefined {
  return object.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) && p.name.text === name,
  );
}

interface Edit {
  at: number;
  insert: string;
}

/**
 * Appends an item to an object or array literal: after its last item, with a comma unless one is
 * there already, and after a `// comment` that ends the last item's line, so the comment stays with it.
 */
function insertItem(
  text: string,
  file: ts.JsonSourceFile,
  container: ts.ObjectLiteralExpression | ts.ArrayLiteralExpression,
  item: string,
  indent: string,
): Edit[] {
  const items: readonly ts.Node[] = ts.isObjectLiteralExpression(container) ? container.properties : container.elements;
  const last = items.at(-1);
  if (last === undefined) {
    const closing = container.end - 1;
    const closingOnOwnLine = /^[ \t]*$/.test(text.slice(lineStart(text, closing), closing));
    return [{ at: container.getStart(file) + 1, insert: `\n${indent}${item}${closingOnOwnLine ? '' : `\n${indentOfLine(text, container.getStart(file))}`}` }];
  }
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  scanner.resetTokenState(last.end);
  const hasComma = scanner.scan() === ts.SyntaxKind.CommaToken;
  const afterLast = hasComma ? scanner.getTokenEnd() : last.end;
  const restOfLine = /^[ \t]*(\/\/[^\r\n]*)?(?=\r?\n)/.exec(text.slice(afterLast));
  const at = restOfLine ? afterLast + restOfLine[0].length : afterLast;
  const insert = `\n${indent}${item}`;
  if (hasComma) return [{ at, insert }];
  return at === last.end
    ? [{ at, insert: `,${insert}` }]
    : [
        { at: last.end, insert: ',' },
        { at, insert },
      ];
}

function lineStart(text: string, position: number): number {
  return text.lastIndexOf('\n', position - 1) + 1;
}

function indentOfLine(text: string, position: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, position)))![0];
}
