import { ts } from '../front-end/typescript.js';
import path from 'node:path';

export const AUTHORING_PACKAGE = '@toolwright/tool';

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
