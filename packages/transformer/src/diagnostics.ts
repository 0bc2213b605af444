import ts from 'typescript';

/**
 * One variant of a diagnostic: it fills the `{problem}` slot of the message and the `{hint}` slot of
 * the hint. Variants share their diagnostic's code; the wording of each lives here, never at a call site.
 */
export interface DiagnosticReason {
  problem?: string;
  hint?: string;
}

/** One entry of the catalogue: a stable numeric code, a message with `{placeholders}` and a hint. */
export interface DiagnosticDefinition {
  code: number;
  category: 'error' | 'warning';
  message: string;
  hint: string;
  /** Variants, reported as `'<id>.<reason>'`. */
  reasons?: Readonly<Record<string, DiagnosticReason>>;
}

const ANY_JSON_HINT = 'Describe the shape with a type where you can. This is an error when the transformer option `strictJson` is set.';

/**
 * Every diagnostic the transformer can report. Codes are stable: they are printed as `TW<code>`
 * by `toolwright emit` and reported to `tsc` as `TS<TS_CODE_OFFSET + code>` (outside TypeScript's own ranges).
 */
export const DIAGNOSTICS = {
  genericTool: {
    code: 1001,
    category: 'error',
    message: "Tool '{tool}' declares type parameters; a tool needs one concrete JSON Schema for its arguments.",
    hint: 'Replace the type parameters with concrete types, or a union of the types the tool accepts.',
  },
  unsupportedType: {
    code: 1002,
    category: 'error',
    message: "{role} '{path}' has type '{type}', which has no JSON Schema form.",
    hint: '{hint}',
    reasons: {
      never: { hint: "No value has type 'never'; remove the parameter or give it a type." },
      void: { hint: "'void' has no value to send; remove the parameter." },
      undefined: { hint: 'Make the parameter optional (`name?: T`) instead of typing it undefined.' },
      symbol: { hint: 'Symbols do not survive JSON; use a string.' },
      bigint: { hint: 'JSON numbers lose bigint precision; take a string of digits and parse it with BigInt().' },
      tooDeep: { hint: 'Types nested deeper than {depth} levels are refused; name the recursive type so it becomes a $ref.' },
      notData: { hint: 'Use JSON data types: string, number, boolean, arrays, and objects of those.' },
      mixedIntersection: { hint: 'Write the intersection of object types as one interface (typia tags cannot be mixed into it).' },
      callback: { hint: 'Tools receive data, not callbacks: take a value that describes what to do.' },
      map: { hint: 'Use Record<string, V> (a JSON object) instead of a Map.' },
      set: { hint: 'Use an array (V[]) instead of a Set, with `@uniqueItems` if order does not matter.' },
      weakCollection: { hint: 'Weak collections cannot be serialised; take plain data instead.' },
      promise: { hint: 'Take the resolved value; tool arguments are plain JSON data.' },
      regexp: { hint: 'Take the pattern as a string (with `@format regex`) and build the RegExp inside the tool.' },
      error: { hint: 'Take a message string or a plain object describing the error.' },
      binary: { hint: 'Take binary data as a base64 string (`@format byte`) and decode it inside the tool.' },
      url: { hint: 'Take the URL as a string with `@format uri` and parse it inside the tool.' },
      runtimeObject: { hint: "'{name}' is a runtime object, not JSON data; take a plain object or string instead." },
      arrayWithMembers: {
        hint: "'{name}' is an array with extra members ({members}), which JSON arrays cannot carry; take the array and the extra values separately.",
      },
    },
  },
  destructuredParameter: {
    code: 1003,
    category: 'error',
    message: "A destructured parameter has no name for the model to use in tool '{tool}'.",
    hint: 'Take a named parameter (e.g. `options: Options`) and destructure it inside the body, or give the tool the `flatten` option to declare the properties of an object pattern as its arguments.',
  },
  restParameter: {
    code: 1004,
    category: 'error',
    message: "Rest parameter '{param}' of tool '{tool}' cannot be described as a named argument.",
    hint: 'Take an array instead: `{param}: T[]`.',
  },
  toolMustBeAsync: {
    code: 1005,
    category: 'error',
    message: "Tool '{tool}' must be an async function (or return a Promise); it returns '{type}'.",
    hint: 'Add the `async` keyword: tool calls are awaited, time out and can be cancelled.',
  },
  thisParameter: {
    code: 1006,
    category: 'error',
    message: "Tool '{tool}' declares a 'this' parameter; a tool is called with no receiver.",
    hint: 'Remove the `this` parameter. For shared state, use a @tool() method on a toolkit class.',
  },
  thisInFreeFunction: {
    code: 1007,
    category: 'error',
    message: "Tool '{tool}' uses 'this', but a tool function is called with no receiver.",
    hint: 'Pass what you need as a parameter, or make the tool a @tool() method of a toolkit class.',
  },
  duplicateToolName: {
    code: 1008,
    category: 'error',
    message: "Tool name '{name}' is already used by '{other}'.",
    hint: 'Wire names must be unique in a program: rename one function or pass `name` in its options.',
  },
  invalidWireName: {
    code: 1009,
    category: 'error',
    message: "Tool name '{name}' does not match ^[a-zA-Z0-9_-]{1,64}$.",
    hint: 'Providers reject other names: use letters, digits, `_` and `-`, at most 64 characters.',
  },
  toolNotExported: {
    code: 1010,
    category: 'error',
    message: "Tool '{tool}' is not exported, so no registry can import it.",
    hint: 'Add `export` to the declaration.',
  },
  invalidOption: {
    code: 1011,
    category: 'error',
    message: "Invalid value for tool option '{option}': {problem}.",
    hint: '{hint}',
    reasons: {
      notOneOf: { problem: "'{value}' is not one of {allowed}", hint: 'Use one of: {allowed}.' },
      notDuration: { problem: "'{value}' is not a duration", hint: "Write a duration such as '500ms', '5s' or '2m', or a number of milliseconds." },
      notSideEffect: { problem: "'{value}' is not a side effect", hint: 'Use {allowed}.' },
      noneWithOthers: { problem: "'none' cannot be combined with other side effects", hint: "Declare either 'none' or the effects." },
      notList: { problem: 'expected a list of strings', hint: "Write an array literal such as ['fs-read']." },
      emptyListItem: { problem: 'list items must be non-empty', hint: 'Remove the empty entries.' },
      notSize: { problem: "'{value}' is not a size", hint: "Write a size such as '64KB', '256MB' or a number of bytes." },
      notBoolean: { problem: "'{value}' is not a boolean", hint: 'Write true or false.' },
      notGroup: { problem: "'{value}' is not a group name", hint: 'Use search, edit, exec, subtask, meta, or your own identifier.' },
      notSemver: { problem: "'{value}' is not a semantic version", hint: "Write it as '1.2.3'." },
      notPositiveInteger: { problem: "'{value}' is not a positive integer", hint: 'Write a whole number of requests.' },
      nameNotString: { problem: 'the name must be a string', hint: "Write name: 'my_tool'." },
      emptyDescription: { problem: 'the description must be a non-empty string', hint: 'Write a sentence that tells the model when to call the tool.' },
      noCallers: {
        problem: 'the list of callers is empty',
        hint: "List who may call the tool: 'direct' (the model), 'programmatic' (code run by a code-execution tool), or both.",
      },
    },
  },
  optionNotStatic: {
    code: 1012,
    category: 'error',
    message: "Tool option '{option}' must be written as a literal so it can be read at build time.",
    hint: 'Write the value inline (a string, number, boolean or array literal) instead of an expression.',
  },
  unknownOption: {
    code: 1013,
    category: 'error',
    message: "Unknown tool option '{option}'.",
    hint: 'Known options: {known}.',
  },
  unsupportedToolForm: {
    code: 1014,
    category: 'error',
    message: '{problem}',
    hint: '{hint}',
    reasons: {
      decoratorNotApplied: {
        problem: 'tool() without a function returns a method decorator, but it is not used as one here.',
        hint: 'Wrap a function, `tool(async function name(...) {...})`, or decorate a method with `@tool()`.',
      },
      notAFunction: {
        problem: 'tool() needs the function itself: a function expression, an arrow function, or the name of a function declaration.',
        hint: 'Write `tool(async function name(...) {...})` so the signature can be read at build time.',
      },
      anonymousFunction: {
        problem: 'A @tool function needs a name: the wire name is derived from it.',
        hint: 'Name the function, e.g. `export default async function readFile(...)`.',
      },
      sourceWithoutSignature: {
        problem: "source.{kind}() needs the tool's signature as its type argument: the declaration is read from it.",
        hint: 'Write the signature in place, e.g. `source.{kind}<(path: string) => Promise<Result>>(...)`, or name a type alias of a function type.',
      },
      sourceSignatureNotFunction: {
        problem: "The type argument of source.{kind}() must be a function type (or a type alias of one), the tool's signature.",
        hint: 'Write `(name: Type, ...) => Promise<Result>`; an interface, a generic alias or a computed type cannot be read as a signature.',
      },
      sourceNotBound: {
        problem: "source.{kind}() must be the value of an exported const: the tool's name and export are the const's.",
        hint: 'Write `export const name = source.{kind}<...>(...)`; to export it as the default as well, add `export default name`.',
      },
    },
  },
  unexpectedConstruct: {
    code: 1015,
    category: 'error',
    message: "Toolwright could not analyse tool '{tool}': {problem}.",
    hint: 'This is a Toolwright limitation; please report it with this code. Simplify the signature meanwhile.',
  },
  invalidJsDocTag: {
    code: 1016,
    category: 'error',
    message: "JSDoc tag '@{tag}' on '{path}' {problem}.",
    hint: '{hint}',
    reasons: {
      notNumber: { problem: "needs a number, got '{value}'", hint: 'Write it as `@{tag} 10`.' },
      notPositive: { problem: 'needs a number greater than 0', hint: 'Write it as `@{tag} 0.5`.' },
      notCount: { problem: "needs a non-negative integer, got '{value}'", hint: 'Write it as `@{tag} 1`.' },
      invalidPattern: { problem: 'is not a valid regular expression: {error}', hint: 'Write an ECMAScript regular expression without slashes.' },
      emptyPattern: { problem: 'needs a pattern', hint: 'Write it as `@pattern ^[a-z]+$`.' },
      notFormat: { problem: "needs a format name, got '{value}'", hint: 'Write it as `@format email` (date-time, uri, uuid, ...).' },
      notFlag: { problem: "takes no value or true/false, got '{value}'", hint: 'Write `@{tag}`.' },
      integerOnNonNumber: { problem: 'integer applies to number values', hint: 'Use `@type integer` on a number.' },
      wrongType: { problem: 'applies to {kind} values, but this is of type {actual}', hint: 'Remove @{tag} or move it to a {kind} property.' },
      wrongReference: { problem: 'applies to {kind} values, but this is a reference', hint: 'Remove @{tag} or move it to a {kind} property.' },
      wrongUnion: { problem: 'applies to {kind} values, but this is a union', hint: 'Remove @{tag} or move it to a {kind} property.' },
      wrongAnyJson: { problem: 'applies to {kind} values, but this accepts any JSON value', hint: 'Remove @{tag} or give the value a {kind} type.' },
      notNullable: {
        problem: 'says the value may be null, but {actual} does not admit null',
        hint: "Write `| null` in the type (`string | null`), so the tool's code handles null too; the tag alone would let the model send a value the code does not expect.",
      },
      refUnsupported: {
        problem: 'is not supported',
        hint: 'Named types are inlined, and only recursive types become `$defs` entries, named after the type: remove @{tag} (rename the type to rename its definition).',
      },
      wireUnknownParameter: { problem: "names no parameter: '{value}'", hint: 'Write it as `@wire <parameter> <argument name>`.' },
      wireMissingName: {
        problem: 'needs an argument name',
        hint: "Write `@wire <parameter> <argument name>` in the tool's JSDoc, or `/** @wire <argument name> */` before the parameter.",
      },
    },
  },
  invalidToolMethod: {
    code: 1017,
    category: 'error',
    message: "@tool() cannot decorate {problem} '{method}'.",
    hint: 'Decorate a public instance method of an exported class.',
    reasons: {
      private: { problem: 'private method' },
      static: { problem: 'static method' },
      nonPublic: { problem: 'non-public method' },
      computed: { problem: 'computed method' },
    },
  },
  invalidArgumentName: {
    code: 1018,
    category: 'error',
    message: "Argument name '{name}' of parameter '{param}' {problem}.",
    hint: '{hint}',
    reasons: {
      pattern: {
        problem: 'does not match ^[a-zA-Z0-9_.-]{1,64}$',
        hint: 'Providers reject other property names: use letters, digits, `_`, `.` and `-`, at most 64 characters.',
      },
      duplicate: { problem: "is already the argument name of parameter '{other}'", hint: 'Give each parameter its own argument name with `@wire`.' },
    },
  },
  invalidFlatten: {
    code: 1019,
    category: 'error',
    message: "Tool '{tool}' cannot be flattened: {problem}.",
    hint: '{hint}',
    reasons: {
      parameterCount: {
        problem: 'it has {count} parameters, and flattening needs exactly one options object',
        hint: 'Take one parameter whose type is an object (`options: ScrapeOptions`), or remove the `flatten` option.',
      },
      notObject: {
        problem: "parameter '{param}' has type '{type}', which is not an object with named properties",
        hint: 'Flatten a parameter whose type is an interface or an object type, or remove the `flatten` option.',
      },
      union: {
        problem: "parameter '{param}' has type '{type}', a union, and the declared arguments must be one object",
        hint: 'Providers require the arguments to be one object: take the alternatives as a property (`{ target: A | B }`), or write one object type whose properties are optional.',
      },
      openObject: {
        problem: "parameter '{param}' has type '{type}', which accepts properties of any name",
        hint: 'Flattened arguments need names: list the properties in the type, or take the map as a property (`{ headers: Record<string, string> }`).',
      },
      optionalWithRequired: {
        problem: "parameter '{param}' is optional but its properties {properties} are required",
        hint: 'A flattened tool always receives an object (`{}` when no argument is sent): make the parameter required, or the properties optional.',
      },
      initializer: {
        problem: "the default of parameter '{param}' would never be used: the tool always receives the object built from the arguments",
        hint: 'Remove the default (`= {}` is allowed) and give properties their defaults with `@default`, or in a destructuring pattern.',
      },
      wireTag: {
        problem: "parameter '{param}' is not an argument of its own, so `@wire` does not apply to it",
        hint: "The arguments are the object's property names: name the property as the model should send it (`'max-results'?: number`).",
      },
      argumentName: {
        problem: "property '{name}' is an argument name that does not match ^[a-zA-Z0-9_.-]{1,64}$",
        hint: 'Providers reject other argument names: rename the property (letters, digits, `_`, `.` and `-`, at most 64 characters).',
      },
    },
  },
  invalidExample: {
    code: 1020,
    category: 'error',
    message: "Example {index} of tool '{tool}' {problem}.",
    hint: '{hint}',
    reasons: {
      notJson: {
        problem: 'is not JSON',
        hint: 'Write the arguments of one whole call as a JSON object, keys and strings in double quotes: `@example {"path": "README.md", "limit": 10}`.',
      },
      notStatic: {
        problem: 'is not a literal',
        hint: 'Write the example inline as an object literal of JSON values (strings, numbers, booleans, null, arrays and objects of those).',
      },
      notObject: {
        problem: 'is {actual}, not an object of arguments',
        hint: 'An example is the arguments of one whole call: an object keyed by argument name, such as `{ "path": "README.md" }`.',
      },
      doesNotFit: {
        problem: "does not fit the tool's parameters: {issue}",
        hint: "Fix '{path}' in the example, or the parameter's type if the example is right.",
      },
    },
  },
  missingDescription: {
    code: 1101,
    category: 'warning',
    message: "Tool '{tool}' has no description; the model will not know when to call it.",
    hint: 'Add a JSDoc summary above the function (or the `description` option).',
  },
  descriptionTooLong: {
    code: 1102,
    category: 'warning',
    message: "The description of tool '{tool}' is {length} characters; providers truncate or reject descriptions over 1024.",
    hint: 'Keep the summary short and move details into parameter descriptions.',
  },
  defaultNotLiteral: {
    code: 1103,
    category: 'warning',
    message: "The default of parameter '{path}' is not a literal, so the model is not shown it.",
    hint: 'Use a literal initialiser, or document the default with `@default` in the JSDoc.',
  },
  anyJson: {
    code: 1104,
    category: 'warning',
    message: "{role} '{path}' has type '{type}', so it accepts any JSON {problem} and the model gets no guidance on its shape.",
    hint: ANY_JSON_HINT,
    reasons: {
      value: { problem: 'value' },
      object: { problem: 'object' },
    },
  },
  classInstance: {
    code: 1105,
    category: 'warning',
    message: "{role} '{path}' has class type '{type}': the tool receives a plain object of its public data properties, without {members}.",
    hint: 'Take an interface of the data the tool needs (or rebuild the instance inside the tool).',
  },
} as const satisfies Record<string, DiagnosticDefinition>;

export type DiagnosticId = keyof typeof DIAGNOSTICS;

/** How messages name a position of a signature: `{role} '{path}' has type ...`. */
export const POSITION_ROLES = {
  parameter: 'Parameter',
  property: 'Property',
  element: 'Element',
  result: 'The result of',
} as const;

export type PositionRole = keyof typeof POSITION_ROLES;

/** What a call site reports: a diagnostic id, or `'<id>.<reason>'` for the diagnostics that have variants. */
export type DiagnosticKey = {
  [I in DiagnosticId]: (typeof DIAGNOSTICS)[I] extends { reasons: infer R } ? `${I}.${keyof R & string}` : I;
}[DiagnosticId];

/** Arguments of a report: values for the `{placeholders}` of the message, hint and reason. */
export type DiagnosticArgs = Record<string, string | number>;

/** Added to our codes when they are handed to TypeScript, so they never collide with its own. */
export const TS_CODE_OFFSET = 990_000;

/** A diagnostic in our own terms, before it becomes a `ts.Diagnostic`. */
export interface ToolwrightDiagnostic {
  id: DiagnosticId;
  /** The variant, for diagnostics that have them. */
  reason?: string;
  code: number;
  category: 'error' | 'warning';
  message: string;
  hint: string;
  file: ts.SourceFile;
  start: number;
  length: number;
}

/** Fills `{name}` placeholders in one pass: a value that itself contains braces is never expanded again. */
export function formatTemplate(template: string, args: DiagnosticArgs): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in args ? String(args[key]) : whole));
}

/** The message and hint templates of a key, with the reason's wording put in its slots (not yet formatted). */
export function diagnosticTemplates(key: DiagnosticKey): {
  id: DiagnosticId;
  reason?: string;
  definition: DiagnosticDefinition;
  message: string;
  hint: string;
} {
  const [id, reason] = key.split('.') as [DiagnosticId, string | undefined];
  const definition: DiagnosticDefinition = DIAGNOSTICS[id];
  if (!reason) return { id, definition, message: definition.message, hint: definition.hint };
  const variant = definition.reasons?.[reason];
  if (!variant) throw new Error(`Toolwright bug: diagnostic '${id}' has no reason '${reason}'`);
  return {
    id,
    reason,
    definition,
    message: definition.message.replace('{problem}', () => variant.problem ?? ''),
    hint: definition.hint.replace('{hint}', () => variant.hint ?? ''),
  };
}

export function createToolwrightDiagnostic(key: DiagnosticKey, args: DiagnosticArgs, node: ts.Node, category?: 'error' | 'warning'): ToolwrightDiagnostic {
  const { id, reason, definition, message, hint } = diagnosticTemplates(key);
  const file = node.getSourceFile();
  const start = node.getStart(file);
  return {
    id,
    ...(reason ? { reason } : {}),
    code: definition.code,
    category: category ?? definition.category,
    message: formatTemplate(message, args),
    hint: formatTemplate(hint, args),
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
