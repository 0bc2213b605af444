import type { JsonSchema, ParametersSchema } from './json-schema.js';
import type { ToolMetadata } from './tool-metadata.js';

/** Where a declaration came from, for messages and the emitted manifest. */
export interface ToolSource {
  /** Path relative to the project root, with forward slashes. */
  file: string;
  line: number;
  /** The exported binding: `readFile`, or `Toolkit.prototype.readFile` for a class method. */
  exportName: string;
  form: 'wrapper' | 'decorator' | 'jsdoc';
}

/** The function declaration of one tool: what the model is shown and what the executor enforces. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: ParametersSchema;
  /** Schema of the resolved value of the returned Promise; absent for `Promise<void>`. */
  returns?: JsonSchema;
  /** Parameter names in declaration order: how an argument object is spread into a call. */
  parameterOrder: string[];
  metadata: ToolMetadata;
  source?: ToolSource;
}
