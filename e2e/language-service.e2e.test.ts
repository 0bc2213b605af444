import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TsServerClient } from './support/tsserver-client.js';

const BROKEN = path.join(__dirname, 'broken-project');
const BASIC = path.join(__dirname, 'basic-project');

interface ServerDiagnostic {
  code: number;
  text: string;
  start: { line: number; offset: number };
  source?: string;
}

describe('the language service plugin in a real tsserver', () => {
  const client = new TsServerClient(__dirname);
  afterAll(() => client.close());

  it('reports Toolwright diagnostics for a broken file, at the offending node', async () => {
    const file = path.join(BROKEN, 'src', 'broken.ts');
    client.notify('open', { file });
    const diagnostics = await client.request<ServerDiagnostic[]>('semanticDiagnosticsSync', { file });
    const ours = diagnostics.filter((d) => d.code > 990_000);
    expect(ours.map((d) => [d.code, d.start.line, d.start.offset])).toEqual(
      expect.arrayContaining([
        [991002, 6, 13],
        [991001, 18, 34],
      ]),
    );
    expect(ours.find((d) => d.code === 991002)!.text).toContain("Property 'options.callback' has type '() => void'");
  });

  it('reports nothing of its own for a valid file', async () => {
    const file = path.join(BASIC, 'src', 'files.ts');
    client.notify('open', { file });
    const diagnostics = await client.request<ServerDiagnostic[]>('semanticDiagnosticsSync', { file });
    expect(diagnostics).toEqual([]);
  });
});
