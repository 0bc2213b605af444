import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { Reporter } from '../src/reporter.js';
import { resolveMetadata } from '../src/analysis/tool-options.js';
import { compileFixture } from './compile-fixture.js';

const FIXTURES = path.resolve(__dirname, '../fixtures');

function nodeAt(text: string, find: string): ts.Node {
  const file = ts.createSourceFile('a.ts', text, ts.ScriptTarget.ES2022, true);
  let found: ts.Node | undefined;
  const visit = (node: ts.Node) => {
    if (!found && node.getText(file) === find) found = node;
    node.forEachChild(visit);
  };
  file.forEachChild(visit);
  return found!;
}

describe(Reporter, () => {
  it('keeps one diagnostic per code and span, whatever the message says', () => {
    const reporter = new Reporter();
    const node = nodeAt('let a: () => void;', '() => void');
    reporter.report('unsupportedType.callback', { role: 'Property', path: 'a.cb', type: '() => void' }, node);
    reporter.report('unsupportedType.callback', { role: 'Property', path: 'b.cb', type: '() => void' }, node);
    expect(reporter.diagnostics.map((d) => d.message)).toEqual(["Property 'a.cb' has type '() => void', which has no JSON Schema form."]);
  });

  it('counts repeated errors, so every tool that meets a shared error fails', () => {
    const reporter = new Reporter();
    const node = nodeAt('let a: () => void;', '() => void');
    reporter.report('unsupportedType.callback', { role: 'Parameter', path: 'a', type: '() => void' }, node);
    const before = reporter.errorCount;
    reporter.report('unsupportedType.callback', { role: 'Parameter', path: 'a', type: '() => void' }, node);
    expect(reporter.errorCount).toBe(before + 1);
    expect(reporter.diagnostics).toHaveLength(1);
  });

  it('reports a warning as an error when asked to (strictJson)', () => {
    const reporter = new Reporter({ asErrors: new Set(['anyJson'] as const) });
    reporter.report('anyJson.value', { role: 'Parameter', path: 'body', type: 'unknown' }, nodeAt('let body: unknown;', 'unknown'));
    expect(reporter.diagnostics[0]).toMatchObject({ id: 'anyJson', reason: 'value', code: 1104, category: 'error' });
  });
});

describe(resolveMetadata, () => {
  const node = nodeAt("f({ description: 'x' });", "'x'");

  it.for(['! starts a shell history expansion.', '|piped|'])('accepts the description %j as it is', (description) => {
    const reporter = new Reporter();
    const result = resolveMetadata([new Map([['description', { value: description, node }]])], reporter);
    expect(reporter.diagnostics).toEqual([]);
    expect(result.description).toBe(description);
  });

  it('names the whole value of a rejected option, separators included', () => {
    const reporter = new Reporter();
    resolveMetadata([new Map([['timeout', { value: '5|s', node }]])], reporter);
    expect(reporter.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ["Invalid value for tool option 'timeout': '5|s' is not a duration.", "Write a duration such as '500ms', '5s' or '2m', or a number of milliseconds."],
    ]);
  });
});

describe('one diagnostic per root cause', () => {
  it('fails every tool that uses a refused type, with one error for the type', () => {
    const { analysis } = compileFixture(path.join(FIXTURES, '_error_/one-diagnostic-per-root-cause'));
    expect(analysis.diagnostics.filter((d) => d.category === 'error')).toHaveLength(1);
    expect(analysis.tools.map((t) => [t.candidate.functionName, t.declaration === undefined])).toEqual([
      ['runJobs', true],
      ['queueJob', true],
    ]);
  });
});
