import { ts } from './front-end/typescript.js';

/** The JSDoc of one declaration, reduced to what Toolwright uses. */
export interface DocInfo {
  /** The summary text (everything before the first tag). */
  summary: string;
  tags: DocTag[];
  /** `@param name text` tags by parameter name. */
  params: Map<string, DocTag>;
}

export interface DocTag {
  name: string;
  text: string;
  node: ts.Node;
}

const EMPTY: DocInfo = { summary: '', tags: [], params: new Map() };

/**
 * Reads JSDoc without asking the compiler to parse every comment of the program.
 *
 * `tsc` parses JSDoc in TypeScript files only for type errors (`JSDocParsingMode.ParseForTypeErrors`,
 * since TS 5.3), so `ts.getJSDocTags` finds nothing there. Rather than `parseAllJsDoc` for the whole
 * program (+14–19% build time, see docs/toolchain.md), the few files that hold tool signatures and
 * their types are re-parsed with full JSDoc on demand, and the node at the same position is read.
 */
export class JsDocReader {
  private readonly reparsed = new Map<string, ts.SourceFile>();
  /** Docs already read, by node: a shared type's declaration is read at every use. */
  private readonly known = new WeakMap<ts.Node, DocInfo>();

  read(node: ts.Node): DocInfo {
    let docs = this.known.get(node);
    if (!docs) this.known.set(node, (docs = this.readAfresh(node)));
    return docs;
  }

  private readAfresh(node: ts.Node): DocInfo {
    const host = this.fullyParsedNode(node);
    if (!host) return EMPTY;
    const docs = ts.getJSDocCommentsAndTags(host).filter(ts.isJSDoc);
    if (docs.length > 0) return this.toDocInfo(docs[docs.length - 1]!, node, 0);
    return this.sameLineDoc(node) ?? EMPTY;
  }

  /**
   * A doc comment on the same line as the previous token is not attached to the node by the parser
   * (only parameters get those), so `{ /** @format uri *\/ u: string }` would lose its tag: such a
   * comment, directly in front of the node, is parsed on its own.
   */
  private sameLineDoc(node: ts.Node): DocInfo | undefined {
    const sourceFile = node.getSourceFile();
    const text = sourceFile.text;
    const range = (ts.getTrailingCommentRanges(text, node.getFullStart()) ?? [])
      .filter((r) => text.startsWith('/**', r.pos) && /^[ \t]*$/.test(text.slice(r.end, node.getStart(sourceFile))))
      .pop();
    if (!range) return undefined;
    const snippet = ts.createSourceFile(
      sourceFile.fileName,
      `${text.slice(range.pos, range.end)}\nvar _;`,
      { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseAll },
      true,
    );
    const doc = ts.getJSDocCommentsAndTags(snippet.statements[0]!).filter(ts.isJSDoc).pop();
    return doc ? this.toDocInfo(doc, node, range.pos) : undefined;
  }

  /** `offset`: where the parsed text starts in the node's file (0 unless a comment was parsed alone). */
  private toDocInfo(doc: ts.JSDoc, node: ts.Node, offset: number): DocInfo {
    const tags: DocTag[] = [];
    const params = new Map<string, DocTag>();
    for (const tag of doc.tags ?? []) {
      const entry: DocTag = { name: tag.tagName.text, text: tagText(tag), node: this.originalNode(node, tag, offset) };
      tags.push(entry);
      if (ts.isJSDocParameterTag(tag) && ts.isIdentifier(tag.name)) params.set(tag.name.text, entry);
    }
    return { summary: normalise(ts.getTextOfJSDocComment(doc.comment) ?? ''), tags, params };
  }

  /** Whether the node has a `/**` comment in front of it; cheap, needs no JSDoc parsing. */
  static hasDocComment(node: ts.Node, sourceFile: ts.SourceFile, pattern?: RegExp): boolean {
    // A comment on the same line as the previous token (`(a: string, /** @minimum 1 */ b: number)`)
    // is that token's trailing comment to the scanner, so look at both kinds.
    const pos = node.getFullStart();
    const ranges = [...(ts.getTrailingCommentRanges(sourceFile.text, pos) ?? []), ...(ts.getLeadingCommentRanges(sourceFile.text, pos) ?? [])];
    return ranges.some((range) => {
      const text = sourceFile.text.slice(range.pos, range.end);
      return text.startsWith('/**') && (!pattern || pattern.test(text));
    });
  }

  private fullyParsedNode(node: ts.Node): ts.Node | undefined {
    const sourceFile = node.getSourceFile();
    if (!JsDocReader.hasDocComment(node, sourceFile)) return undefined;
    if (ts.getJSDocCommentsAndTags(node).some(ts.isJSDoc)) return node;
    let full = this.reparsed.get(sourceFile.fileName);
    if (!full || full.text !== sourceFile.text) {
      full = ts.createSourceFile(
        sourceFile.fileName,
        sourceFile.text,
        { languageVersion: sourceFile.languageVersion, jsDocParsingMode: ts.JSDocParsingMode.ParseAll },
        true,
      );
      this.reparsed.set(sourceFile.fileName, full);
    }
    return findSameNode(full, node);
  }

  /** Diagnostics must point into the program's own source file, not the re-parsed copy. */
  private originalNode(node: ts.Node, tag: ts.JSDocTag, offset: number): ts.Node {
    if (tag.getSourceFile() === node.getSourceFile()) return tag;
    return new TextSpanNode(node.getSourceFile(), offset + tag.getStart(), offset + tag.getEnd()) as unknown as ts.Node;
  }
}

/** A minimal stand-in with the span of a JSDoc tag in the original file. */
class TextSpanNode {
  constructor(
    private readonly file: ts.SourceFile,
    private readonly start: number,
    private readonly end: number,
  ) {}
  getSourceFile(): ts.SourceFile {
    return this.file;
  }
  getStart(): number {
    return this.start;
  }
  getEnd(): number {
    return this.end;
  }
  getFullStart(): number {
    return this.start;
  }
}

function findSameNode(root: ts.Node, target: ts.Node): ts.Node | undefined {
  let current: ts.Node | undefined = root;
  while (current) {
    if (current.pos === target.pos && current.end === target.end && current.kind === target.kind) return current;
    let next: ts.Node | undefined;
    current.forEachChild((child) => {
      if (!next && child.pos <= target.pos && child.end >= target.end) next = child;
    });
    current = next;
  }
  return undefined;
}

function tagText(tag: ts.JSDocTag): string {
  const comment = ts.getTextOfJSDocComment(tag.comment) ?? '';
  if (ts.isJSDocTypeTag(tag) || ts.isJSDocReturnTag(tag)) {
    const typeText = tag.typeExpression ? tag.typeExpression.type.getText() : '';
    return normalise([typeText, comment].filter(Boolean).join(' '));
  }
  return normalise(comment.replace(/^\s*-\s+/, ''));
}

function normalise(text: string): string {
  return text.replace(/\r\n/g, '\n').trim();
}
