import { audio, content, embeddedResource, image, tool, type ToolContent } from '@toolwright/tool';

// The tools the official MCP conformance suite calls (its server scenarios name them), written as a user writes any
// tool: each returns what its scenario expects through Toolwright's own helpers.

/** A 1×1 red PNG. */
const RED_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** A WAV file of one silent sample (8 kHz, 8-bit mono). */
const SILENT_WAV = (() => {
  const bytes = Buffer.alloc(45);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(37, 4);
  bytes.write('WAVEfmt ', 8, 'ascii');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(1, 22); // mono
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(8000, 28);
  bytes.writeUInt16LE(1, 32);
  bytes.writeUInt16LE(8, 34);
  bytes.write('data', 36, 'ascii');
  bytes.writeUInt32LE(1, 40);
  bytes.writeUInt8(128, 44);
  return bytes;
})();

/** Returns a short text. */
export const test_simple_text = tool(
  async function test_simple_text(): Promise<string> {
    return 'This is a simple text response for testing.';
  },
  { tier: 'read-only' },
);

/** Returns a 1×1 red PNG image. */
export const test_image_content = tool(
  async function test_image_content(): Promise<ToolContent> {
    return content(image(RED_PIXEL, 'image/png'));
  },
  { tier: 'read-only' },
);

/** Returns a tiny WAV sound. */
export const test_audio_content = tool(
  async function test_audio_content(): Promise<ToolContent> {
    return content(audio(SILENT_WAV, 'audio/wav'));
  },
  { tier: 'read-only' },
);

/** Returns a text resource embedded in the result. */
export const test_embedded_resource = tool(
  async function test_embedded_resource(): Promise<ToolContent> {
    return content(embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' }));
  },
  { tier: 'read-only' },
);

/** Returns a text, an image and an embedded JSON resource. */
export const test_multiple_content_types = tool(
  async function test_multiple_content_types(): Promise<ToolContent> {
    return content(
      'Multiple content types test:',
      image(RED_PIXEL, 'image/png'),
      embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
    );
  },
  { tier: 'read-only' },
);

/** Always fails. */
export const test_error_handling = tool(
  async function test_error_handling(): Promise<string> {
    throw new Error('This tool intentionally returns an error for testing');
  },
  { tier: 'read-only' },
);
