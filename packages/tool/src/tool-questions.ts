import type { AudioBlock, ImageBlock, TextBlock } from './tool-content.js';

// What a running tool may ask the client behind its call (`getToolContext().elicit` and `.ask`): a person's form, a
// completion from the client's model, the client's roots — and the answers it gets back, typed from the question.

/** A choice shown under its own title (`value1` shown as "First Option"). */
export interface TitledChoice {
  readonly const: string;
  readonly title: string;
}

/** One field of an elicitation form (MCP's flat form: no nesting). */
export type ElicitField =
  | {
      readonly type: 'string';
      readonly title?: string;
      readonly description?: string;
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly format?: 'email' | 'uri' | 'date' | 'date-time';
      readonly default?: string;
    }
  | {
      readonly type: 'string';
      readonly enum: readonly string[];
      /** Titles of the choices, in their order (deprecated by MCP in favour of `oneOf`; still shown by clients). */
      readonly enumNames?: readonly string[];
      readonly title?: string;
      readonly description?: string;
      readonly default?: string;
    }
  | { readonly type: 'string'; readonly oneOf: readonly TitledChoice[]; readonly title?: string; readonly description?: string; readonly default?: string }
  | {
      readonly type: 'number' | 'integer';
      readonly title?: string;
      readonly description?: string;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    }
  | { readonly type: 'boolean'; readonly title?: string; readonly description?: string; readonly default?: boolean }
  | {
      /** Several choices at once. */
      readonly type: 'array';
      readonly items: { readonly type: 'string'; readonly enum: readonly string[] } | { readonly anyOf: readonly TitledChoice[] };
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly title?: string;
      readonly description?: string;
      readonly default?: readonly string[];
    };

/** The form a tool asks a person to fill in. */
export interface ElicitSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, ElicitField>>;
  readonly required?: readonly string[];
}

/** The value of one choice list's members. */
type ChoiceOf<C> = C extends { readonly enum: readonly (infer E)[] }
  ? E
  : C extends { readonly oneOf: readonly (infer T)[] } | { readonly anyOf: readonly (infer T)[] }
    ? T extends { readonly const: infer V }
      ? V
      : never
    : never;

/** The value of one field: a choice's members (an array of them for a multi-select), else its type's. */
type FieldValue<F extends ElicitField> = F extends { readonly type: 'array'; readonly items: infer I }
  ? ChoiceOf<I>[]
  : F extends { readonly enum: readonly string[] } | { readonly oneOf: readonly TitledChoice[] }
    ? ChoiceOf<F>
    : F extends { readonly type: 'string' }
      ? string
      : F extends { readonly type: 'boolean' }
        ? boolean
        : number;

type RequiredKeys<S extends ElicitSchema> = S['required'] extends readonly (infer K)[] ? Extract<K, keyof S['properties']> : never;

/** What an accepted form holds: the required fields, and the others when filled in. */
export type ElicitedValue<S extends ElicitSchema> = {
  -readonly [K in RequiredKeys<S>]: FieldValue<S['properties'][K]>;
} & {
  -readonly [K in Exclude<keyof S['properties'], RequiredKeys<S>>]?: FieldValue<S['properties'][K]>;
};

/**
 * The person's answer: `accept` with the form's content, `decline` (they said no) or `cancel` (they dismissed it);
 * `unavailable` when nobody could be asked (no person behind this host, a client that cannot ask), with why.
 */
export type ElicitAnswer<T> =
  | { readonly action: 'accept'; readonly content: T }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }
  | { readonly action: 'unavailable'; readonly message: string };

/** A person's form: a message and the fields to fill in. */
export interface FormQuestion<S extends ElicitSchema = ElicitSchema> {
  readonly kind: 'form';
  readonly message: string;
  readonly schema: S;
}

/** One message of a conversation handed to the client's model. */
export interface SampleMessage {
  readonly role: 'user' | 'assistant';
  readonly content: TextBlock | ImageBlock | AudioBlock;
}

/** A completion asked of the client's model (MCP sampling): the client may show it to its user first, or refuse. */
export interface SampleQuestion {
  readonly kind: 'sample';
  readonly messages: readonly SampleMessage[];
  /** The most tokens the completion may take. */
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
}

/** The client's roots: the folders (`file://` URIs) its user works in. */
export interface RootsQuestion {
  readonly kind: 'roots';
}

/** Anything a tool may ask in one round. */
export type AskQuestion = FormQuestion | SampleQuestion | RootsQuestion;

/** The questions of one round, each under a key of the tool's choosing (letters, digits, `_`, `-`, `.`; up to 64). */
export type AskQuestions = Readonly<Record<string, AskQuestion>>;

/** The message the client's model answered with. */
export interface SampledMessage {
  readonly role: 'user' | 'assistant';
  readonly content: TextBlock | ImageBlock | AudioBlock;
  /** The model that answered, as the client names it. */
  readonly model: string;
  readonly stopReason?: string;
}

/** The completion, or why there is none (the client cannot sample, its user refused, the answer was malformed). */
export type SampleAnswer = { readonly action: 'accept'; readonly content: SampledMessage } | { readonly action: 'unavailable'; readonly message: string };

/** One of the client's roots. */
export interface ClientRoot {
  /** A `file://` URI. */
  readonly uri: string;
  readonly name?: string;
}

/** The client's roots, or why there are none to read. */
export type RootsAnswer = { readonly action: 'accept'; readonly content: readonly ClientRoot[] } | { readonly action: 'unavailable'; readonly message: string };

/** The answer to one question, typed from it. */
export type AskAnswer<Q extends AskQuestion> =
  Q extends FormQuestion<infer S> ? ElicitAnswer<ElicitedValue<S>> : Q extends SampleQuestion ? SampleAnswer : RootsAnswer;

/** The answers of one round, under the keys they were asked with. */
export type AskAnswers<Q extends AskQuestions> = { -readonly [K in keyof Q]: AskAnswer<Q[K]> };
