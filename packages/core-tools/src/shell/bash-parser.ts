import v8 from 'node:v8';
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
    tierUpLater();
    await treeSitter.Parser.init();
    const language: Language = await treeSitter.Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new treeSitter.Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

/**
 * The V8 of Node.js 20 (11.3) optimises a WebAssembly function once it has run a budget of 1.8 million (later V8s
 * wait for 13 million). The bash grammar's lexer is one huge function that reaches that budget within a few commands,
 * and its optimised compile takes a second of CPU in the background, which a process ending soon after (a
 * `toolwright call`) waits for: 1.7 s instead of 0.6 s for one command. The grammar gets the later budget, set
 * before it is compiled, unless the process was started with a budget of its own. Later V8s are left as they are.
 */
function tierUpLater(): void {
  const major = Number(process.versions.v8.split('.')[0]);
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) => flag.includes('wasm-tiering-budget'));
  if (major < 12 && !given) v8.setFlagsFromString('--wasm-tiering-budget=13000000');
}

export type { Node as SyntaxNode };
