import type { Node7, SourceFile7, TypeScript7 } from './typescript-7-api.js';

// JSDoc for the TypeScript 7 front end. TypeScript 7 parses every doc comment and attaches it to
// its node (`node.jsDoc`), so the analysis's JSDoc reader finds it there; what TypeScript 6's API
// adds on top is written here in TypeScript 6's terms: which doc comments belong to a node (its own,
// and those of the statement it is the first declaration of, …), and the parse of a lone comment
// (a doc comment on the same line as the token before a node is attached to nothing, in both).

/** The doc comments (`JSDoc` nodes) and tags that document `host`, as TypeScript 6's `getJSDocCommentsAndTags` lists them. */
export function jsDocCommentsAndTags(typescript: TypeScript7, host: Node7): Node7[] {
  const kind = typescript.enums.SyntaxKind;
  const result: Node7[] = [];
  const initializer = host.initializer as Node7 | undefined;
  if (VARIABLE_LIKE.some((name) => host.kind === kind[name]) && initializer?.jsDoc?.length) result.push(...ownedDocs(typescript, host, initializer.jsDoc));
  for (let node: Node7 | undefined = host; node?.parent; node = nextCommentLocation(typescript, node)) {
    if (node.jsDoc?.length) result.push(...ownedDocs(typescript, host, node.jsDoc));
    // A parameter's `@param` tags and a type parameter's `@template` tags come from its function's
    // comment, and are tags (never `JSDoc` nodes): the walk ends there.
    if (node.kind === kind.Parameter || node.kind === kind.TypeParameter) break;
  }
  return result;
}

const VARIABLE_LIKE = [
  'BindingElement',
  'EnumMember',
  'Parameter',
  'PropertyAssignment',
  'PropertyDeclaration',
  'PropertySignature',
  'ShorthandPropertyAssignment',
  'VariableDeclaration',
] as const;

/** The last comment of a place documents the host whole, unless it holds a cast's `@type` of another node; earlier ones give only `@overload` tags. */
function ownedDocs(typescript: TypeScript7, host: Node7, docs: readonly Node7[]): Node7[] {
  const kind = typescript.enums.SyntaxKind;
  const last = docs[docs.length - 1];
  return docs.flatMap((doc) => {
    const tags = (doc.tags as readonly Node7[] | undefined) ?? [];
    if (doc !== last) return tags.filter((tag) => tag.kind === kind.JSDocOverloadTag);
    const owned = tags.filter(
      (tag) =>
        !(tag.kind === kind.JSDocTypeTag || tag.kind === kind.JSDocSatisfiesTag) ||
        tag.parent?.kind !== kind.JSDoc ||
        tag.parent.parent?.kind !== kind.ParenthesizedExpression ||
        tag.parent.parent === host,
    );
    return owned.length === tags.length ? [doc] : owned;
  });
}

/** Where the comment documenting `node` may also sit: the statement of a variable, the assignment or property holding it, … */
function nextCommentLocation(typescript: TypeScript7, node: Node7): Node7 | undefined {
  const kind = typescript.enums.SyntaxKind;
  const parent = node.parent;
  const grandparent = parent?.parent;
  const firstDeclarationOf = (statement: Node7 | undefined) =>
    statement?.kind === kind.VariableStatement
      ? ((statement!.declarationList as Node7 | undefined)?.declarations as readonly Node7[] | undefined)?.[0]
      : undefined;
  if (
    parent.kind === kind.PropertyAssignment ||
    parent.kind === kind.ExportAssignment ||
    parent.kind === kind.PropertyDeclaration ||
    parent.kind === kind.ReturnStatement ||
    (parent.kind === kind.ExpressionStatement && node.kind === kind.PropertyAccessExpression) ||
    (parent.kind === kind.ModuleDeclaration && (parent.body as Node7 | undefined)?.kind === kind.ModuleDeclaration) ||
    isAssignment(typescript, node)
  )
    return parent;
  if (grandparent && (firstDeclarationOf(grandparent) === node || isAssignment(typescript, parent))) return grandparent;
  const greatGrandparent = grandparent?.parent;
  if (greatGrandparent && firstDeclarationOf(greatGrandparent) !== undefined) return greatGrandparent;
  return undefined;
}

function isAssignment(typescript: TypeScript7, node: Node7): boolean {
  const kind = typescript.enums.SyntaxKind;
  if (node.kind !== kind.BinaryExpression) return false;
  const operator = (node.operatorToken as Node7).kind;
  return operator >= Number(kind.FirstAssignment) && operator <= Number(kind.LastAssignment);
}

/**
 * A lone doc comment parsed into the shape of TypeScript's (a `JSDoc` node with its tags, each with
 * its span in `text`), held by the one statement of a made-up file, as `createSourceFile` of the
 * comment and a statement would give it: the JSDoc reader reads a same-line comment this way.
 */
export function parseLoneComment(typescript: TypeScript7, fileName: string, text: string): SourceFile7 {
  const kind = typescript.enums.SyntaxKind;
  const file = { kind: kind.SourceFile, fileName, text, pos: 0, end: text.length, statements: [] as Node7[] } as unknown as SourceFile7;
  const end = text.indexOf('*/');
  if (!text.startsWith('/**') || end < 0) return file;
  const doc = span(file, { kind: kind.JSDoc, comment: '', tags: [] as Node7[] }, 0, end + 2);
  const tags: Node7[] = [];
  const summary: string[] = [];
  let current: { name: string; start: number; lines: string[] } | undefined;
  const finish = (upTo: number) => {
    if (current) tags.push(tagNode(typescript, file, doc, current.name, current.lines.join('\n'), current.start, upTo));
  };
  // Line by line (the margin `*` left out); a tag starts with `@name` at the start of a line or after
  // white space, outside a code span.
  let lineStart = 3;
  while (lineStart < end) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 || newline > end ? end : newline;
    let at = lineStart;
    while (at < lineEnd && /[ \t]/.test(text[at]!)) at++;
    if (text[at] === '*' && lineStart !== 3) at++;
    let piece = at;
    let inCode = false;
    for (let i = at; i < lineEnd; i++) {
      const char = text[i]!;
      if (char === '`') inCode = !inCode;
      const tagName = char === '@' && !inCode && (i === at || /\s/.test(text[i - 1]!)) ? /^@([A-Za-z_$][\w$]*)/.exec(text.slice(i, lineEnd)) : null;
      if (!tagName) continue;
      (current ? current.lines : summary).push(text.slice(piece, i));
      finish(trimEnd(text, i));
      current = { name: tagName[1]!, start: i, lines: [] };
      piece = i + tagName[0].length;
      i = piece - 1;
    }
    (current ? current.lines : summary).push(text.slice(piece, lineEnd));
    lineStart = lineEnd + 1;
  }
  finish(trimEnd(text, end));
  Object.assign(doc, { comment: summary.join('\n').trim(), tags });
  const statement = span(file, { kind: kind.VariableStatement, jsDoc: [doc], parent: file }, 0, text.length);
  (doc as { parent: Node7 }).parent = statement;
  (file.statements as Node7[]).push(statement);
  return file;
}

/** One tag: `@param {T} name text`, `@returns {T} text`, `@type {T}`, or any other `@name text`. */
function tagNode(typescript: TypeScript7, file: SourceFile7, doc: Node7, name: string, body: string, start: number, end: number): Node7 {
  const kind = typescript.enums.SyntaxKind;
  const fields: Record<string, unknown> = { tagName: { kind: kind.Identifier, text: name, escapedText: name } };
  let rest = body.replace(/^\s+/, '');
  const typeExpression = /^\{([^}]*)\}\s*/.exec(rest);
  const typed = (text: string) => ({ kind: kind.JSDocTypeExpression, type: { getText: () => text.trim() } });
  if (name === 'param' || name === 'arg' || name === 'argument') {
    fields.kind = kind.JSDocParameterTag;
    if (typeExpression) {
      fields.typeExpression = typed(typeExpression[1]!);
      rest = rest.slice(typeExpression[0].length);
    }
    const parameter = /^\[?\s*([A-Za-z_$][\w$.]*)(?:\s*=[^\]]*)?\s*\]?/.exec(rest);
    if (parameter) {
      fields.name = { kind: kind.Identifier, text: parameter[1], escapedText: parameter[1] };
      fields.isBracketed = parameter[0].startsWith('[');
      rest = rest.slice(parameter[0].length);
    }
  } else if (name === 'returns' || name === 'return' || name === 'type') {
    fields.kind = name === 'type' ? kind.JSDocTypeTag : kind.JSDocReturnTag;
    if (typeExpression) {
      fields.typeExpression = typed(typeExpression[1]!);
      rest = rest.slice(typeExpression[0].length);
    }
  } else {
    fields.kind = kind.JSDocUnknownTag;
  }
  const comment = rest.trim();
  if (comment) fields.comment = comment;
  return span(file, { ...fields, parent: doc }, start, end);
}

/** A made-up node of `file` spanning [start, end): what the reader asks of a node (its file and span). */
function span(file: SourceFile7, fields: Record<string, unknown>, start: number, end: number): Node7 {
  return {
    ...fields,
    pos: start,
    end,
    getSourceFile: () => file,
    getStart: () => start,
    getEnd: () => end,
    getFullStart: () => start,
    forEachChild: () => undefined,
  } as unknown as Node7;
}

function trimEnd(text: string, end: number): number {
  let at = end;
  while (at > 0 && /\s/.test(text[at - 1]!)) at--;
  return at;
}
