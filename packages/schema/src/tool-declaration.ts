import type { JsonSchema, ParametersSchema } from './json-schema.js';
import type { ToolMetadata } from './tool-metadata.js';
import type { ToolSourceKind } from './tool-source-kind.js';

/** Where a declaration came from, for messages and the emitted manifest. */
export interface ToolSource {
  /** Path relative to the project root, with forward slashes. */
  file: string;
  line: number;
  /** The exported binding: `readFile`, or `Toolkit.prototype.readFile` for a class method. */
  exportName: string;
  form: 'wrapper' | 'decorator' | 'jsdoc';
  /** Where a tool declared from a signature runs (`source.wasm<F>(...)` of @toolwright/sources); absent for a function's own body. */
  runs?: ToolSourceKind;
}

/** How a tool's function receives its arguments: see {@link ToolDeclaration.argumentPassing}. */
export type ArgumentPassing = 'positional' | 'object';

/** The function declaration of one tool: what the model is shown and what the executor enforces. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: ParametersSchema;
  /** Schema of the resolved value of the returned Promise; absent for `Promise<void>` and for content results. */
  returns?: JsonSchema;
  /**
   * The tool returns content blocks (`Promise<ToolContent>` of @toolwright/tool: text, images, audio, resource links,
   * embedded resources) rather than JSON data: it has no `returns` schema.
   */
  returnsContent?: true;
  /**
   * Argument names in declaration order. Positional tools: how the argument object is spread into
   * the function's parameters. Flattened tools: the properties of the one options object.
   */
  parameterOrder: string[];
  /**
   * How the function receives the validated arguments: spread into its parameters in
   * `parameterOrder` (`'positional'`, the default when absent), or as one object holding the
   * arguments (`'object'`: a tool written with the `flatten` option, whose one parameter is an
   * options object whose properties are the declared arguments).
   */
  argumentPassing?: ArgumentPassing;
  metadata: ToolMetadata;
  source?: ToolSource;
}
