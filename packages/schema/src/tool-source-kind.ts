/** Where a tool declared from a signature runs (`source.wasm`, `source.subprocess`, `source.http` of @toolwright/sources). */
export type ToolSourceKind = 'wasm' | 'subprocess' | 'http';
export const TOOL_SOURCE_KINDS: readonly ToolSourceKind[] = ['wasm', 'subprocess', 'http'];

/**
 * The keys of each source's options that belong to the source, not to the tool: the transformer reads the tool's
 * options (`tier`, `timeout`, ...) from the same object literal and leaves these to run time.
 */
export const SOURCE_OPTION_KEYS: Readonly<Record<ToolSourceKind, readonly string[]>> = {
  wasm: ['export', 'fuel', 'maxOutputBytes', 'allowAddresses', 'allowPorts'],
  subprocess: ['cwd', 'env', 'cpuSeconds', 'processes', 'fileSizeBytes', 'maxOutputBytes', 'network', 'sandbox'],
  http: ['headers', 'allowAddresses', 'allowPorts', 'maxResponseBytes'],
};
