import { content, image, resourceLink, tool, type ToolContent } from '@toolwright/tool';

/** The eight bytes that open every PNG file: enough of an image for a test. */
const PNG_SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/**
 * Takes a snapshot of a page: a caption, the image, and a link to the page.
 * @param page The page's name.
 */
export const snapshot = tool(
  async function snapshot(page: string): Promise<ToolContent> {
    return content(`The page ${page}:`, image(PNG_SIGNATURE, 'image/png'), resourceLink({ uri: `https://example.com/${page}`, name: page }));
  },
  { tier: 'read-only' },
);
