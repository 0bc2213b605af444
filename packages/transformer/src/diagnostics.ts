import ts from 'typescript';

/** One entry of the catalogue: a stable numeric code, a message with `{placeholders}` and a hint. */
export interface DiagnosticDefinition {
  code: number;
  category: 'error' | 'warning';
  message: string;
  hint: string;
}

/**
 * Every diagnostic the transformer can report. Codes are stable: they are printed as `TW<code>`
 * by `toolwright emit` and reported to `tsc` as `TS<TS_CODE_OFFSET + code>` (outside TypeScript's own ranges).
 */
export const DIAGNOSTICS = {
  genericTool: {
    code: 1001, category: 'error',
    message: "Tool '{tool}' declares type parameters; a tool needs one concrete JSON Schema for its arguments.",
    hint: 'Replace the type parameters with concrete types, or a union of the types the tool accepts.',
  },
  unsupportedType: {
    code: 1002, category: 'error',
    message: "{role} '{path}' has type '{type}', which has no JSON Schema form.",
    hint: '{hint}',
  },
  destructuredParameter: {
    code: 1003, category: 'error',
    message: "A destructured parameter has no name for the model to use in tool '{tool}'.",
    hint: 'Take a named parameter (e.g. `options: Options`) and destructure it inside the body.',
  },
  restParameter: {
    code: 1004, category: 'error',
    message: "Rest parameter '{param}' of tool '{tool}' cannot be described as a named argument.",
    hint: 'Take an array instead: `{param}: T[]`.',
  },
  toolMustBeAsync: {
    code: 1005, category: 'error',
    message: "Tool '{tool}' must be an async function (or return a Promise); it returns '{type}'.",
    hint: 'Add the `async` keyword: tool calls are awaited, time out and can be cancelled.',
  },
  thisParameter: {
    code: 1006, category: 'error',
    message: "Tool '{tool}' declares a 'this' parameter; a tool is called with no receiver.",
    hint: 'Remove the `this` parameter. For shared state, use a @tool() method on a toolkit class.',
  },
  thisInFreeFunction: {
    code: 1007, category: 'error',
    message: "Tool '{tool}' uses 'this', but a tool function is called with no receiver.",
    hint: 'Pass what you need as a parameter, or make the tool a @tool() method of a toolkit class.',
  },
  duplicateToolName: {
    code: 1008, category: 'error',
    message: "Tool name '{name}' is already used by '{other}'.",
    hint: 'Wire names must be unique in a program: rename one function or pass `name` in its options.',
  },
  invalidWireName: {
    code: 1009, category: 'error',
    message: "Tool name '{name}' does not match ^[a-zA-Z0-9_-]{1,64}$.",
    hint: 'Providers reject other names: use letters, digits, `_` and `-`, at most 64 characters.',
  },
  toolNotExported: {
    code: 1010, category: 'error',
    message: "Tool '{tool}' is not exported, so no registry can import it.",
    hint: 'Add `export` to the declaration.',
  },
  invalidOption: {
    code: 1011, category: 'error',
    message: "Invalid value for tool option '{option}': {problem}.",
    hint: '{hint}',
  },
  optionNotStatic: {
    code: 1012, category: 'error',
    message: "Tool option '{option}' must be written as a literal so it can be read at build time.",
    hint: 'Write the value inline (a string, number, boolean or array literal) instead of an expression.',
  },
  unknownOption: {
    code: 1013, category: 'error',
    message: "Unknown tool option '{option}'.",
    hint: 'Known options: {known}.',
  },
  unsupportedToolForm: {
    code: 1014, category: 'error',
    message: '{problem}',
    hint: '{hint}',
  },
  unexpectedConstruct: {
    code: 1015, category: 'error',
    message: "Toolwright could not analyse tool '{tool}': {problem}.",
    hint: 'This is a Toolwright limitation; please report it with this code. Simplify the signature meanwhile.',
  },
  invalidJsDocTag: {
    code: 1016, category: 'error',
    message: "JSDoc tag '@{tag}' on '{path}' {problem}.",
    hint: '{hint}',
  },
  invalidToolMethod: {
    code: 1017, category: 'error',
    message: "@tool() cannot decorate {what} '{method}'.",
    hint: 'Decorate a public instance method of an exported class.',
  },
  missingDescription: {
    code: 1101, category: 'warning',
    message: "Tool '{tool}' has no description; the model will not know when to call it.",
    hint: 'Add a JSDoc summary above the function (or the `description` option).',
  },
  descriptionTooLong: {
    code: 1102, category: 'warning',
    message: "The description of tool '{tool}' is {length} characters; providers truncate or reject descriptions over 1024.",
    hint: 'Keep the summary short and move details into parameter descriptions.',
  },
  defaultNotLiteral: {
    code: 1103, category: 'warning',
    message: "The default of parameter '{path}' is not a literal, so the model is not shown it.",
    hint: 'Use a literal initialiser, or document the default with `@default` in the JSDoc.',
  },
} as const satisfies Record<string, DiagnosticDefinition>;

export type DiagnosticId = keyof typeof DIAGNOSTICS;

/** Added to our codes when they are handed to TypeScript, so they never collide with its own. */
export const TS_CODE_OFFSET = 990_000;

/** A diagnostic in our own terms, before it becomes a `ts.Diagnostic`. */
export interface ToolwrightDiagnostic {
  id: DiagnosticId;
  code: number;
  category: 'error' | 'warning';
  message: string;
  hint: string;
  file: ts.SourceFile;
  start: number;
  length: number;
}

export function formatTemplate(template: string, args: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in args ? String(args[key]) : whole));
}

export function createToolwrightDiagnostic(
  id: DiagnosticId, args: Record<string, string | number>, node: ts.Node,
): ToolwrightDiagnostic {
  const definition: DiagnosticDefinition = DIAGNOSTICS[id];
  const file = node.getSourceFile();
  const start = node.getStart(file);
  return {
    id,
    code: definition.code,
    category: definition.category,
    message: formatTemplate(definition.message, args),
    hint: formatTemplate(definition.hint, args),
    file,
    start,
    length: Math.max(1, node.getEnd() - start),
  };
}

/** Turns our diagnostic into a TypeScript one, so `tsc`, `tspc` and editors print it like a type error. */
export function toTsDiagnostic(diagnostic: ToolwrightDiagnostic): ts.Diagnostic {
  return {
    file: diagnostic.file,
    start: diagnostic.start,
    length: diagnostic.length,
    category: diagnostic.category === 'error' ? ts.DiagnosticCategory.Error : ts.DiagnosticCategory.Warning,
    code: TS_CODE_OFFSET + diagnostic.code,
    source: 'toolwright',
    messageText: {
      messageText: `${diagnostic.message} (TW${diagnostic.code})`,
      category: diagnostic.category === 'error' ? ts.DiagnosticCategory.Error : ts.DiagnosticCategory.Warning,
      code: TS_CODE_OFFSET + diagnostic.code,
      next: [{ messageText: `Hint: ${diagnostic.hint}`, category: ts.DiagnosticCategory.Message, code: TS_CODE_OFFSET + diagnostic.code }],
    },
  };
}
