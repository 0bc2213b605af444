import type ts from 'typescript';

/** What a project's tsconfig `plugins` entries tell Toolwright's transformers. */
export interface TransformerSettings {
  /** `"strictJson": true` on either entry: parameters that take any JSON value are errors (TW1104). */
  strictJson?: true;
  /** `"warnings": "error"` on the program entry: every warning fails the build. */
  warnings?: 'error';
}

/**
 * Reads the settings from the tsconfig's Toolwright entries (`@toolwright/transformer` and
 * `@toolwright/transformer/program`), so `toolwright build`, `emit`, `call -p` and `serve -p` judge a
 * project exactly as `tspc` with its plugins would.
 */
export function transformerSettings(options: ts.CompilerOptions): TransformerSettings {
  const plugins = (options as { plugins?: { transform?: string; warnings?: unknown; strictJson?: unknown }[] }).plugins ?? [];
  const entries = plugins.filter((p) => p.transform === '@toolwright/transformer' || p.transform === '@toolwright/transformer/program');
  const settings: TransformerSettings = {};
  if (entries.some((p) => p.strictJson === true)) settings.strictJson = true;
  if (entries.some((p) => p.transform === '@toolwright/transformer/program' && p.warnings === 'error')) settings.warnings = 'error';
  return settings;
}

/** Only the `strictJson` setting, for analysis and the source transformer (warnings never fail them). */
export function strictJsonOf(options: ts.CompilerOptions): { strictJson?: true } {
  return transformerSettings(options).strictJson ? { strictJson: true } : {};
}
