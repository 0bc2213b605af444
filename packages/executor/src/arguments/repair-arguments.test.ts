import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import type { JsonSchema } from '@toolwright/schema';
import { MemoryAuditSink } from '../memory-audit-sink.js';
import { declaration, defineTool } from '../test-support/declare-tool.js';
import { ToolExecutor } from '../tool-executor.js';
import { DEFAULT_PARSE_LIMITS } from './parse-arguments.js';
import { repairsOf, repairText, repairValue } from './repair-arguments.js';

const ALL = repairsOf(true)!;
const schema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer' },
    ratio: { type: 'number' },
    force: { type: 'boolean' },
    options: { type: 'object', properties: { depth: { type: 'integer' } } },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: ['string', 'number'] },
  },
} as unknown as JsonSchema;

describe(repairText, () => {
  it.for([
    ['a code fence with a language', '```json\n{"path":"a.txt"}\n```', '{"path":"a.txt"}', [{ kind: 'code_fence', path: '$' }]],
    ['a bare code fence, spaces around', '  ```\n{"path":"a.txt"}\n```  ', '{"path":"a.txt"}', [{ kind: 'code_fence', path: '$' }]],
    ['a trailing comma in an object', '{"path":"a.txt",}', '{"path":"a.txt"}', [{ kind: 'trailing_comma', path: '$', at: 15 }]],
    [
      'trailing commas in an array and an object',
      '{"tags":["a","b" , ] ,\n}',
      '{"tags":["a","b"  ] \n}',
      [
        { kind: 'trailing_comma', path: '$', at: 17 },
        { kind: 'trailing_comma', path: '$', at: 21 },
      ],
    ],
    [
      'both at once',
      '```json\n{"path":"a,}",}\n```',
      '{"path":"a,}"}',
      [
        { kind: 'code_fence', path: '$' },
        { kind: 'trailing_comma', path: '$', at: 13 },
      ],
    ],
  ] as const)('repairs %s', ([, text, repaired, made]) => {
    expect(repairText(text, ALL)).toEqual({ text: repaired, repairs: made });
  });

  it.for([
    ['prose around the fence (which part was meant?)', 'Here you go:\n```json\n{"path":"a.txt"}\n```'],
    ['two fences', '```json\n{"path":"a"}\n```\n```json\n{"path":"b"}\n```'],
    ['a comma inside a string only', '{"path":"a,}"'],
  ] as const)('refuses %s', ([, text]) => {
    expect(repairText(text, ALL)).toBeUndefined();
  });

  it('repairs only what is turned on', () => {
    expect(repairText('{"a":1,}', repairsOf({ codeFences: true })!)).toBeUndefined();
    expect(repairText('```\n{"a":1}\n```', repairsOf({ trailingCommas: true })!)).toBeUndefined();
    expect(repairsOf(false)).toBeUndefined();
    expect(repairsOf({})).toBeUndefined();
  });
});

describe(repairValue, () => {
  const repair = (args: Record<string, unknown>) => repairValue(schema, args, ALL, DEFAULT_PARSE_LIMITS);

  it.for([
    ['a JSON-encoded object', { options: '{"depth":2}' }, { options: { depth: 2 } }, [{ kind: 'encoded_json', path: '$.options' }]],
    ['a JSON-encoded array', { tags: '["a","b"]' }, { tags: ['a', 'b'] }, [{ kind: 'encoded_json', path: '$.tags' }]],
    ['an integer as a string', { limit: '42' }, { limit: 42 }, [{ kind: 'scalar_string', path: '$.limit' }]],
    ['a number as a string', { ratio: '-0.5e2' }, { ratio: -50 }, [{ kind: 'scalar_string', path: '$.ratio' }]],
    ['a boolean as a string', { force: 'false' }, { force: false }, [{ kind: 'scalar_string', path: '$.force' }]],
    [
      'a string inside an encoded object',
      { options: '{"depth":"3"}' },
      { options: { depth: 3 } },
      [
        { kind: 'encoded_json', path: '$.options' },
        { kind: 'scalar_string', path: '$.options.depth' },
      ],
    ],
  ] as const)('repairs %s where the schema wants it', ([, args, value, made]) => {
    expect(repair(args)).toEqual({ value: { ...value }, repairs: made });
  });

  it.for([
    ['"4.5" for an integer (lossy)', { limit: '4.5' }],
    ['"4e0" for an integer (not an integer as written)', { limit: '4e0' }],
    ['"1e999" for a number (not finite)', { ratio: '1e999' }],
    ['"12345678901234567890" for an integer (loses digits)', { limit: '12345678901234567890' }],
    ['" 42" for an integer (not exact)', { limit: ' 42' }],
    ['"True" for a boolean (ambiguous)', { force: 'True' }],
    ['"yes" for a boolean (ambiguous)', { force: 'yes' }],
    ['encoded JSON of the wrong shape', { options: '[1]' }],
    ['encoded JSON that does not parse', { options: '{depth:2}' }],
    ['encoded JSON with a duplicate key', { options: '{"depth":1,"depth":2}' }],
    ['encoded JSON that smuggles a second member', { options: '{"depth":1},"x":{' }],
    ['a string where the schema also allows a string', { note: '42' }],
    ['a string for a field the schema does not know', { other: '42' }],
  ] as const)('refuses %s', ([, args]) => {
    expect(repair(args)).toBeUndefined();
  });
});

describe('repairArguments in the executor', () => {
  const read = defineTool(
    async (path: string, limit?: number) => `${path}:${limit ?? 'all'}`,
    declaration('read', { path: { type: 'string' }, limit: { type: 'integer' } }, { required: ['path'] }),
  );
  const setup = (repairArguments?: boolean) => {
    const registry = new ToolRegistry();
    registry.register(read);
    const audit = new MemoryAuditSink();
    return { audit, executor: new ToolExecutor({ registry, audit, ...(repairArguments !== undefined ? { repairArguments } : {}) }) };
  };
  const sent = '```json\n{"path":"a.txt","limit":"5",}\n```';

  it('is off by default: the model is told what to fix', async () => {
    const { executor } = setup();
    const result = await executor.executeToolCall({ id: 'r1', name: 'read', arguments: sent });
    expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_json' } });
    const value = await executor.executeToolCall({ id: 'r2', name: 'read', arguments: { path: 'a.txt', limit: '5' } });
    expect(value).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', issues: [{ path: '$.limit', kind: 'type' }] } });
  });

  it('never repairs text over the length limit: it is refused as sent, naming the limit', async () => {
    const { executor } = setup(true);
    for (const extra of [1, 100, 4096]) {
      const padded = `\`\`\`json\n{"path":"${'a'.repeat(DEFAULT_PARSE_LIMITS.maxLength + extra)}",}\n\`\`\``;
      const result = await executor.executeToolCall({ id: `big${extra}`, name: 'read', arguments: padded });
      expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_json' } });
      expect(result.content).toContain(`the limit is ${DEFAULT_PARSE_LIMITS.maxLength}`);
    }
  });

  it('repairs when turned on, and records the repairs with the arguments as sent', async () => {
    const { executor, audit } = setup(true);
    const result = await executor.executeToolCall({ id: 'r3', name: 'read', arguments: sent });
    expect(result).toMatchObject({ status: 'completed', output: 'a.txt:5' });
    expect(audit.records[0]).toMatchObject({
      type: 'ToolCallRequested',
      args: { path: 'a.txt', limit: 5 },
      originalArguments: sent,
      repairs: [
        { kind: 'code_fence', path: '$' },
        { kind: 'trailing_comma', path: '$' },
        { kind: 'scalar_string', path: '$.limit' },
      ],
    });
  });

  it('reports the problems as sent when a repair would not make the call valid', async () => {
    const { executor, audit } = setup(true);
    const result = await executor.executeToolCall({ id: 'r4', name: 'read', arguments: { path: 7, limit: '5' } });
    expect(result).toMatchObject({
      status: 'error',
      error: {
        code: 'invalid_arguments',
        issues: [
          { path: '$.path', kind: 'type' },
          { path: '$.limit', kind: 'type' },
        ],
      },
    });
    expect(audit.records[0]).not.toHaveProperty('repairs');
  });
});
