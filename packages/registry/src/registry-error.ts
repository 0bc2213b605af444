export type RegistryErrorCode =
  'duplicate_tool' | 'missing_declaration' | 'not_a_tool' | 'unknown_tool' | 'init_failed' | 'invalid_query' | 'invalid_search_index';

/** A registration problem; `code` tells which, the message says what to do. */
export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    readonly toolName?: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}
