/** The key that marks a `ToolContent` (a name JSON data of a tool's own never has). */
export const TOOL_CONTENT = '~toolwright.content';

/** A block of text. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/** An image: its bytes in base64 and its media type (`image/png`). */
export interface ImageBlock {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

/** A sound: its bytes in base64 and its media type (`audio/wav`). */
export interface AudioBlock {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

/** A link to a resource the client can fetch (a file, a page), named for the person and the model. */
export interface ResourceLinkBlock {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** A resource carried whole: its text, or its bytes in base64 (`blob`). */
export interface EmbeddedResourceBlock {
  readonly type: 'resource';
  readonly resource:
    { readonly uri: string; readonly mimeType?: string; readonly text: string } | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
}

/** One block of a content result (MCP's content blocks). */
export type ContentBlock = TextBlock | ImageBlock | AudioBlock | ResourceLinkBlock | EmbeddedResourceBlock;

/**
 * A result made of content blocks — text, images, audio, resource links, embedded resources — rather than JSON data.
 * A tool declared to return it (`Promise<ToolContent>`) has no result schema; over MCP its blocks are the result's
 * content, and the model reads its text with a line for each other block.
 * @example return content('The chart of last week:', image(png, 'image/png'));
 */
export interface ToolContent {
  readonly [TOOL_CONTENT]: 1;
  readonly blocks: readonly ContentBlock[];
}

/** A content result of these parts, in order: a string is a text block. */
export function content(...parts: readonly (string | ContentBlock)[]): ToolContent {
  return { [TOOL_CONTENT]: 1, blocks: parts.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part)) };
}

/** An image block of these bytes (`image/png`, `image/jpeg`, ...). */
export function image(bytes: Uint8Array | ArrayBuffer, mimeType: string): ImageBlock {
  return { type: 'image', data: base64(bytes), mimeType };
}

/** An audio block of these bytes (`audio/wav`, `audio/mpeg`, ...). */
export function audio(bytes: Uint8Array | ArrayBuffer, mimeType: string): AudioBlock {
  return { type: 'audio', data: base64(bytes), mimeType };
}

/** A link to a resource the client can fetch. */
export function resourceLink(link: Omit<ResourceLinkBlock, 'type'>): ResourceLinkBlock {
  return { type: 'resource_link', ...link };
}

/** A resource carried whole: text as it is, bytes as base64. */
export function embeddedResource(
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; bytes: Uint8Array | ArrayBuffer },
): EmbeddedResourceBlock {
  if ('text' in resource) return { type: 'resource', resource: { ...resource } };
  const { bytes, ...rest } = resource;
  return { type: 'resource', resource: { ...rest, blob: base64(bytes) } };
}

/** Whether a value is a content result (`content(...)`), as a tool returned it or as JSON carried it. */
export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)[TOOL_CONTENT] === 1 && Array.isArray((value as ToolContent).blocks);
}

function base64(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}
