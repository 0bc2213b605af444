import { ts } from '../front-end/typescript.js';
import path from 'node:path';
import { TOOL_SOURCE_KINDS, type ToolSourceKind } from '@toolwright/schema';
import { unwrapExpression } from './tool-options.js';

export const AUTHORING_PACKAGE = '@toolwright/tool';
/** The package of `source.wasm<F>(...)`, `source.subprocess<F>(...)`, `source.http<F>(...)`. */
export const SOURCES_PACKAGE = '@toolwright/sources';

/**
 * Recognises `tool` from @toolwright/tool however it was imported (named, renamed, namespace,
 * re-exported): the callee's symbol is resolved through aliases to its declaration, and the
 * declaration must live in the authoring package.
 */
export class ToolCalleeResolver {
  private readonly packageOfDir = new Map<string, string | undefined>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly readFile: (file: string) => string | undefined,
  ) {}

  isToolCallee(callee: ts.Expression): boolean {
    const target = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    if (!ts.isIdentifier(target)) return false;
    let symbol = this.checker.getSymbolAtLocation(target);
    if (!symbol) return false;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    if (symbol.name !== 'tool') return false;
    return (symbol.declarations ?? []).some((decl) => this.packageName(path.dirname(decl.getSourceFile().fileName)) === AUTHORING_PACKAGE);
  }

  /**
   * The kind of a source form's callee (`source.wasm`, `sources.source.http`, an alias of `source`): `source` from
   * @toolwright/sources however it was imported, or a variable initialised with it (`const s = source`), and one
   * of its kinds as the member called.
   */
  sourceKindOf(callee: ts.Expression): ToolSourceKind | undefined {
    if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return undefined;
    const kind = callee.name.text as ToolSourceKind;
    if (!TOOL_SOURCE_KINDS.includes(kind)) return undefined;
    let holder: ts.Expression = callee.expression;
    // Through at most a few variables: `const s = source`, `const t = s`.
    for (let depth = 0; depth < 8; depth++) {
      const name = ts.isPropertyAccessExpression(holder) ? holder.name : holder;
      if (!ts.isIdentifier(name)) return undefined;
      let symbol = this.checker.getSymbolAtLocation(name);
      if (!symbol) return undefined;
      if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      const declarations = symbol.declarations ?? [];
      if (symbol.name === 'source' && declarations.some((decl) => this.packageName(path.dirname(decl.getSourceFile().fileName)) === SOURCES_PACKAGE))
        return kind;
      const variable = symbol.valueDeclaration;
      if (!variable || !ts.isVariableDeclaration(variable) || !variable.initializer) return undefined;
      holder = unwrapExpression(variable.initializer);
    }
    return undefined;
  }

  private packageName(dir: string): string | undefined {
    if (this.packageOfDir.has(dir)) return this.packageOfDir.get(dir);
    let name: string | undefined;
    const text = this.readFile(path.join(dir, 'package.json'));
    if (text !== undefined) {
      try {
        name = (JSON.parse(text) as { name?: string }).name;
      } catch {
        name = undefined;
      }
    } else {
      const parent = path.dirname(dir);
      name = parent === dir ? undefined : this.packageName(parent);
    }
    this.packageOfDir.set(dir, name);
    return name;
  }
}
