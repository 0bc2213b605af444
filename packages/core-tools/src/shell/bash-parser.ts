import type * as TreeSitter from 'web-tree-sitter';
import type { Language, Node, Parser } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;

/**
 * The bash grammar (tree-sitter-bash's WebAssembly build, shipped in its npm package), loaded once.
 * Shell commands are only ever judged on this parse tree — never by regex or string splitting.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    // web-tree-sitter ships ESM types for a CommonJS build; load the CommonJS build, on first use.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, on first use (see above)
    const treeSitter = require('web-tree-sitter') as typeof TreeSitter;
    await treeSitter.Parser.init();
    const language: Language = await treeSitter.Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new treeSitter.Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

export type { Node as SyntaxNode };
