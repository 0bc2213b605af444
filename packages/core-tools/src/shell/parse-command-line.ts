import type { Tree } from 'web-tree-sitter';
import { CoreToolError } from '../core-tool-error.js';
import { loadBashParser } from './bash-parser.js';
import { bashSyntaxError } from './bash-syntax.js';

/**
 * The parse tree a command line is judged on: tree-sitter-bash's, and only for a line bash itself
 * parses (`bashSyntaxError`; the two are asked at once). A line bash rejects (`ls ;; pwd`, a stray
 * `done`) is refused with bash's own message, before the tree is read. The caller deletes the tree.
 */
export async function parseCommandLine(command: string): Promise<Tree> {
  const [parser, syntax] = await Promise.all([loadBashParser(), bashSyntaxError(command)]);
  if (syntax !== undefined) throw new CoreToolError('invalid_command', `The command is not valid bash: ${syntax}. Fix its syntax.`);
  const tree = parser.parse(command);
  if (!tree) throw new CoreToolError('invalid_command', 'The command could not be parsed as bash; check its quoting.');
  return tree;
}
