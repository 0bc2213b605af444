import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { getToolContext, type ElicitSchema } from '@toolwright/tool';
import type { ElicitHandler } from './ports.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { declaration, defineTool } from './test-support/declare-tool.js';

// A running tool asks the person behind its call (`getToolContext().elicit`): the host's handler asks; the answer the
// tool gets fits the form it asked with, or says why it is none.

const FORM = {
  type: 'object',
  properties: {
    branch: { type: 'string', title: 'Branch' },
    replicas: { type: 'integer', minimum: 1 },
    mode: { type: 'string', enum: ['fast', 'safe'] },
    confirm: { type: 'boolean' },
  },
  required: ['branch', 'confirm'],
} as const satisfies ElicitSchema;

function setup(elicit: ElicitHandler | undefined, form: unknown = FORM) {
  const registry = new ToolRegistry();
  const asked: string[] = [];
  registry.register(
    defineTool(
      async (question: string) => {
        const answer = await getToolContext()!.elicit(question, form as ElicitSchema);
        return JSON.stringify(answer);
      },
      declaration('deploy', { question: { type: 'string' } }, { metadata: { tier: 'read-only' } }),
    ),
  );
  const executor = new ToolExecutor({
    registry,
    audit: new MemoryAuditSink(),
    ...(elicit
      ? {
          elicit: (request) => {
            asked.push(`${request.tool}: ${request.message}`);
            return elicit(request);
          },
        }
      : {}),
  });
  const run = async (question = 'Which branch?') => {
    const result = await executor.executeToolCall({ id: 'c', name: 'deploy', arguments: { question } });
    return { result, answer: result.status === 'completed' ? JSON.parse(result.output as string) : undefined };
  };
  return { run, asked };
}

describe('a tool asking the person behind its call', () => {
  it('gets the accepted form, as asked', async () => {
    const { run, asked } = setup(async () => ({ action: 'accept', content: { branch: 'main', confirm: true, mode: 'safe', replicas: 3 } }));
    const { answer } = await run();
    expect(answer).toEqual({ action: 'accept', content: { branch: 'main', confirm: true, mode: 'safe', replicas: 3 } });
    expect(asked).toEqual(['deploy: Which branch?']);
  });

  it('hears decline and cancel as they were given', async () => {
    expect((await setup(async () => ({ action: 'decline' })).run()).answer).toEqual({ action: 'decline' });
    expect((await setup(async () => ({ action: 'cancel' })).run()).answer).toEqual({ action: 'cancel' });
  });

  it('is told nobody can be asked where the host has no way to ask, or asking failed', async () => {
    expect((await setup(undefined).run()).answer).toMatchObject({ action: 'unavailable', message: expect.stringContaining('no way to ask a person') });
    const failing = setup(async () => {
      throw new Error('the client went away');
    });
    expect((await failing.run()).answer).toEqual({ action: 'unavailable', message: 'asking failed: the client went away' });
  });

  it.each([
    [{ confirm: true }, "leaves out 'branch'"],
    [{ branch: 7, confirm: true }, "'branch' is not a string"],
    [{ branch: 'main', confirm: 'yes' }, "'confirm' is not a boolean"],
    [{ branch: 'main', confirm: true, replicas: 1.5 }, "'replicas' is not an integer"],
    [{ branch: 'main', confirm: true, mode: 'reckless' }, '\'mode\' is not one of "fast", "safe"'],
    [{ branch: 'main', confirm: true, admin: true }, "'admin', which the form did not ask for"],
    ['main', 'holds no form'],
  ])('never gets an accepted answer that does not fit the form: %j', async (content, why) => {
    const { answer } = await setup(async () => ({ action: 'accept', content }) as never).run();
    expect(answer.action).toBe('unavailable');
    expect(answer.message).toContain(why);
  });

  it.each([
    [{ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 5 } } }, { n: 0 }, "'n' is below 1"],
    [{ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 5 } } }, { n: 9 }, "'n' is above 5"],
    [{ type: 'object', properties: { s: { type: 'string', maxLength: 3 } } }, { s: 'abcd' }, "'s' is longer than 3 characters"],
    [{ type: 'object', properties: { s: { type: 'string', minLength: 2 } } }, { s: '😀' }, "'s' is shorter than 2 characters"],
    [{ type: 'object', properties: { s: { type: 'string', format: 'email' } } }, { s: 'not-an-email' }, "'s' is not an email address"],
    [{ type: 'object', properties: { s: { type: 'string', format: 'date' } } }, { s: '2026-13-45' }, "'s' is not a date"],
    [{ type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] }, {}, 'a name a form cannot hold'],
  ])('never gets a value outside its field: %j', async (form, content, why) => {
    const { result, answer } = await setup(async () => ({ action: 'accept', content }), form).run();
    const said = result.status === 'completed' ? answer.message : result.content;
    expect(said).toContain(why);
  });

  it.each([
    [{ type: 'object', properties: { a: { type: 'string', title: 'Name\u001b[2J' } } }, 'control character in its title'],
    [{ type: 'object', properties: { a: { type: 'string', enum: ['x\u202e'] } } }, 'control character in a choice'],
    [{ type: 'object', properties: { a: { type: 'string', format: 'bogus' } } }, 'has format "bogus"'],
    [{ type: 'object', properties: { a: { type: 'number', minimum: 'one' } } }, 'minimum that is not a number'],
    [{ type: 'object', properties: { a: { type: 'string', title: 7 } } }, 'title that is not text'],
  ])('refuses a form whose texts or bounds a client cannot show as they are: %j', async (form, why) => {
    const { run, asked } = setup(async () => ({ action: 'decline' }), form);
    const { result } = await run();
    expect(result.status).toBe('error');
    expect(result.content).toContain(why);
    expect(asked).toEqual([]);
  });

  it('is not given an answer the handler made up outside accept, decline and cancel', async () => {
    const { answer } = await setup(async () => ({ action: 'approve' }) as never).run();
    expect(answer).toEqual({ action: 'unavailable', message: 'the answer was not one of accept, decline or cancel' });
  });

  it.each([
    [{ type: 'object', properties: { address: { type: 'object' } } }, 'field \'address\' has type "object"'],
    [{ type: 'object', properties: {} }, 'the form asks for nothing'],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, '`required` must list fields of the form'],
    [{ type: 'object', properties: { a: { type: 'string', enum: [1, 2] } } }, "field 'a' has choices that are not strings"],
    [{ type: 'array' }, 'the form is not { type: "object", properties }'],
  ])('fails, saying why, when its own form is not one a person can fill in: %j', async (form, why) => {
    const { run, asked } = setup(async () => ({ action: 'decline' }), form);
    const { result } = await run();
    expect(result.status).toBe('error');
    expect(result.content).toContain(why);
    expect(asked).toEqual([]);
  });
});

describe('a form of titled choices and multi-selects', () => {
  const CHOICES = {
    type: 'object',
    properties: {
      size: {
        type: 'string',
        oneOf: [
          { const: 's', title: 'Small' },
          { const: 'l', title: 'Large' },
        ],
      },
      legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Option A', 'Option B'] },
      colours: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['red', 'green', 'blue'] } },
      tags: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'x', title: 'Ex' },
            { const: 'y', title: 'Why' },
          ],
        },
      },
    },
  } as const satisfies ElicitSchema;

  it('gets choices among the choices, as asked', async () => {
    const content = { size: 'l', legacy: 'b', colours: ['red', 'blue'], tags: ['y'] };
    expect((await setup(async () => ({ action: 'accept', content }), CHOICES).run()).answer).toEqual({ action: 'accept', content });
  });

  it.each([
    [{ size: 'Large' }, '\'size\' is not one of "s", "l"'],
    [{ colours: ['red', 'red'] }, "'colours' is not a list of different choices"],
    [{ colours: ['pink'] }, "'colours' is not a list of different choices"],
    [{ colours: [] }, "'colours' has fewer than 1 choices"],
    [{ colours: ['red', 'green', 'blue'] }, "'colours' has more than 2 choices"],
    [{ tags: 'x' }, "'tags' is not a list of different choices"],
  ])('never gets a choice outside its list: %j', async (content, why) => {
    const { answer } = await setup(async () => ({ action: 'accept', content }), CHOICES).run();
    expect(answer).toEqual({ action: 'unavailable', message: expect.stringContaining(why) });
  });

  it.each([
    [{ type: 'object', properties: { a: { type: 'string', oneOf: [{ const: 'x' }] } } }, 'not { const: string, title: string }'],
    [{ type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'], enumNames: ['X'] } } }, '`enumNames` that do not title each choice'],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'number', enum: ['1'] } } } }, "`items` are not of type 'string'"],
    [{ type: 'object', properties: { a: { type: 'array' } } }, 'without `items` listing its choices'],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, 'list no choices'],
    [{ type: 'object', properties: { a: { type: 'array', items: { enum: ['x'] }, maxItems: -1 } } }, "`items` are not of type 'string'"],
    [{ type: 'object', properties: { a: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] }, maxItems: 1.5 } } }, 'maxItems that is not a count'],
    [{ type: 'object', properties: { a: { type: 'string', anyOf: [{ const: 'x', title: 'X' }] } } }, 'only a multi-select'],
    [
      { type: 'object', properties: { a: { type: 'array', items: { oneOf: [{ const: 'x', title: 'X' }], anyOf: [{ const: 'y', title: 'Y' }] } } } },
      '"oneOf" in its `items`',
    ],
    [{ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } }, 'has "pattern", which a form field does not hold'],
    [{ type: 'object', properties: { a: { type: 'string', items: { enum: ['x'] } } } }, 'has "items", which a form field does not hold'],
    [{ type: 'object', properties: { a: { type: 'number', default: '3' } } }, 'a default that is not a value of its type'],
    [
      { type: 'object', properties: { a: { type: 'array', items: { enum: ['x'], type: 'string' }, default: 'x' } } },
      'a default that is not a value of its type',
    ],
  ])('fails, saying why, when its choices are malformed: %j', async (form, why) => {
    const { run, asked } = setup(async () => ({ action: 'decline' }), form);
    const { result } = await run();
    expect(result.status).toBe('error');
    expect(result.content).toContain(why);
    expect(asked).toEqual([]);
  });
});

describe('a form a person is shown', () => {
  /** Every character that reinterprets what a terminal or a text view shows after it (C0 but tab and newline, DEL, C1, bidi). */
  const unsafe = [
    ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0x09 && code !== 0x0a),
    ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
    0x061c,
    0x200e,
    0x200f,
    ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
    ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
  ].map((code) => String.fromCharCode(code));
  const places = {
    title: (c: string) => ({ type: 'object', properties: { a: { type: 'string', title: `Na${c}me` } } }),
    description: (c: string) => ({ type: 'object', properties: { a: { type: 'string', description: `${c}x` } } }),
    choice: (c: string) => ({ type: 'object', properties: { a: { type: 'string', enum: ['ok', `b${c}`] } } }),
    name: (c: string) => ({ type: 'object', properties: { [`a${c}`]: { type: 'string' } } }),
    'titled choice': (c: string) => ({ type: 'object', properties: { a: { type: 'string', oneOf: [{ const: 'ok', title: `O${c}k` }] } } }),
    'choice name': (c: string) => ({ type: 'object', properties: { a: { type: 'string', enum: ['ok'], enumNames: [`O${c}k`] } } }),
    default: (c: string) => ({ type: 'object', properties: { a: { type: 'string', default: `d${c}` } } }),
    'multi-select choice': (c: string) => ({
      type: 'object',
      properties: { a: { type: 'array', items: { anyOf: [{ const: `o${c}k`, title: 'Ok' }] } } },
    }),
  };

  it.each(Object.keys(places) as (keyof typeof places)[])('never carries a control or bidi character in a %s, whichever it is', async (place) => {
    for (const c of unsafe) {
      const { run, asked } = setup(async () => ({ action: 'decline' }), places[place](c));
      const { result } = await run();
      expect(result.status, `U+${c.charCodeAt(0).toString(16)} in a ${place}`).toBe('error');
      expect(asked).toEqual([]);
    }
  });

  it('keeps tab and newline in a description, where they are only layout', async () => {
    const { run, asked } = setup(async () => ({ action: 'decline' }), {
      type: 'object',
      properties: { a: { type: 'string', description: 'one\ttwo\nthree' } },
    });
    expect((await run()).answer).toEqual({ action: 'decline' });
    expect(asked).toHaveLength(1);
  });
});
