import { isToolContent, type ToolContent } from '@toolwright/tool';
import type { FileReadResult } from '../tools/file-read.js';

/** `result`, which the test expects to be a page of text: when file_read answered content blocks (an image), the test fails here. */
export function textPage(result: FileReadResult | ToolContent): FileReadResult {
  if (isToolContent(result))
    throw new Error(`file_read answered content blocks (${result.blocks.map((block) => block.type).join(', ')}), where the test expects text`);
  return result;
}
