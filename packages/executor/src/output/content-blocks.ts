import { TOOL_CONTENT, type ContentBlock } from '@toolwright/tool';
import type { ArgumentIssue } from '../tool-error.js';

/** Standard base64 (what MCP carries), padded. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** `type/subtype`, as media types are written. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * A content result's blocks, checked (each a text, image, audio, resource link or embedded resource block of the
 * right shape: base64 data, a media type of the block's kind, a URI), from the JSON copy of the tool's output; or
 * what is wrong with them, as output issues.
 */
export function checkContent(value: unknown): { blocks: ContentBlock[] } | { issues: ArgumentIssue[] } {
  if (typeof value !== 'object' || value === null || (value as Record<string, unknown>)[TOOL_CONTENT] !== 1)
    return { issues: [{ path: '$', kind: 'type', expected: ['content (content(...) of @toolwright/tool)'], received: jsonType(value) }] };
  const blocks = (value as { blocks?: unknown }).blocks;
  if (!Array.isArray(blocks)) return { issues: [{ path: '$.blocks', kind: 'type', expected: ['array'], received: jsonType(blocks) }] };
  const issues = blocks.flatMap((block, index) => blockIssues(block, `$.blocks[${index}]`));
  return issues.length > 0 ? { issues } : { blocks: blocks as ContentBlock[] };
}

function blockIssues(block: unknown, path: string): ArgumentIssue[] {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return [{ path, kind: 'type', expected: ['object'], received: jsonType(block) }];
  const fields = block as Record<string, unknown>;
  const text = (name: string, pattern?: RegExp, detail?: string): ArgumentIssue[] => {
    const field = fields[name];
    if (typeof field !== 'string') return [{ path: `${path}.${name}`, kind: 'type', expected: ['string'], received: jsonType(field) }];
    return pattern && !pattern.test(field)
      ? [{ path: `${path}.${name}`, kind: 'constraint', keyword: 'format', params: {}, detail: detail ?? 'is malformed' }]
      : [];
  };
  const mediaOf = (kind: string): ArgumentIssue[] => {
    const issues = [...text('data', BASE64, 'must be base64'), ...text('mimeType', MEDIA_TYPE, 'must be a media type (type/subtype)')];
    if (issues.length === 0 && !(fields.mimeType as string).toLowerCase().startsWith(`${kind}/`))
      issues.push({ path: `${path}.mimeType`, kind: 'constraint', keyword: 'format', params: {}, detail: `must be an ${kind}/ media type` });
    return issues;
  };
  switch (fields.type) {
    case 'text':
      return text('text');
    case 'image':
      return mediaOf('image');
    case 'audio':
      return mediaOf('audio');
    case 'resource_link':
      return [...text('uri', /^[a-z][a-z0-9+.-]*:/i, 'must be a URI'), ...text('name')];
    case 'resource': {
      const resource = fields.resource;
      if (typeof resource !== 'object' || resource === null)
        return [{ path: `${path}.resource`, kind: 'type', expected: ['object'], received: jsonType(resource) }];
      const inner = resource as Record<string, unknown>;
      const issues: ArgumentIssue[] = [];
      if (typeof inner.uri !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(inner.uri))
        issues.push({ path: `${path}.resource.uri`, kind: 'constraint', keyword: 'format', params: {}, detail: 'must be a URI' });
      if (typeof inner.text !== 'string' && !(typeof inner.blob === 'string' && BASE64.test(inner.blob)))
        issues.push({ path: `${path}.resource`, kind: 'constraint', keyword: 'required', params: {}, detail: 'must hold text, or a base64 blob' });
      return issues;
    }
    default:
      return [{ path: `${path}.type`, kind: 'enum', allowed: ['text', 'image', 'audio', 'resource_link', 'resource'] }];
  }
}

/**
 * What a model that reads text is given of content blocks: each text block's text, and a line for each other block
 * (its kind, media type and size, or its link), so it knows what the person was shown.
 */
export function contentText(blocks: readonly ContentBlock[]): string {
  return blocks.map(blockText).join('\n');
}

/**
 * One content block as text (see `contentText`); the adapters word the blocks their SDK cannot carry as media the
 * same way.
 */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${size(base64Bytes(block.data))}]`;
    case 'resource_link':
      return `[link: ${block.name} <${block.uri}>${block.description ? ` — ${block.description}` : ''}]`;
    case 'resource':
      return 'text' in block.resource
        ? `[resource ${block.resource.uri}]\n${block.resource.text}`
        : `[resource ${block.resource.uri}${block.resource.mimeType ? ` ${block.resource.mimeType}` : ''}, ${size(base64Bytes(block.resource.blob))}]`;
  }
}

/** How many bytes a (checked, padded) base64 text holds. */
function base64Bytes(data: string): number {
  return (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}
