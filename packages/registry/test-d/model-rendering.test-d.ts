import { expectError, expectType } from 'tsd';
import { withModelRendering } from '@toolwright/registry';

async function listFiles(dir: string): Promise<{ files: string[]; truncated: boolean }> {
  return { files: [dir], truncated: false };
}

// The renderer receives the tool's resolved output, and returns the tool unchanged.
expectType<typeof listFiles>(withModelRendering(listFiles, (output) => output.files.join('\n')));
// A renderer must return text.
expectError(withModelRendering(listFiles, (output) => output.files));
// It reads only what the output has.
expectError(withModelRendering(listFiles, (output) => output.missing));
