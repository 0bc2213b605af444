import { expectError, expectType } from 'tsd';
import { renderedAs, withModelRendering } from '@toolwright/registry';

async function listFiles(dir: string): Promise<{ files: string[]; truncated: boolean }> {
  return { files: [dir], truncated: false };
}

// The renderer receives the tool's resolved output, and returns the tool unchanged.
expectType<typeof listFiles>(withModelRendering(listFiles, (output) => output.files.join('\n')));
// A renderer must return text.
expectError(withModelRendering(listFiles, (output) => output.files));
// It reads only what the output has.
expectError(withModelRendering(listFiles, (output) => output.missing));

// The decorator form checks the decorated method against the renderer's input.
const renderFiles = (output: { files: string[] }) => output.files.join('\n');
expectType<void>(renderedAs(renderFiles)(listFiles, {} as ClassMethodDecoratorContext));
async function count(): Promise<number> {
  return 1;
}
expectError(renderedAs(renderFiles)(count, {} as ClassMethodDecoratorContext));
