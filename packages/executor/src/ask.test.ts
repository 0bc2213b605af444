import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { getToolContext, type AskQuestions } from '@toolwright/tool';
import type { AskHandler, AskRequest, ElicitHandler } from './ports.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { declaration, defineTool } from './test-support/declare-tool.js';

// A running tool asks a round of questions (`getToolContext().ask`): the host's `ask` handler gets them all at once;
// a host with only an `elicit` handler gets the forms one by one, and the rest is unavailable. Each answer the tool
// gets has been checked against its question.

const ROUND = {
  name: { kind: 'form', message: 'Your name?', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  poem: { kind: 'sample', messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 64, systemPrompt: 'Be brief' },
  roots: { kind: 'roots' },
} as const satisfies AskQuestions;

function setup(handlers: { ask?: AskHandler; elicit?: ElicitHandler }, questions: unknown = ROUND) {
  const registry = new ToolRegistry();
  registry.register(
    defineTool(
      async (_note: string) => JSON.stringify(await getToolContext()!.ask(questions as AskQuestions)),
      declaration('asker', { note: { type: 'string' } }, { metadata: { tier: 'read-only' } }),
    ),
  );
  const audit = new MemoryAuditSink();
  const executor = new ToolExecutor({ registry, audit, ...handlers });
  return async () => {
    const result = await executor.executeToolCall({ id: 'c', name: 'asker', arguments: { note: '' } });
    return {
      result,
      answers: result.status === 'completed' ? (JSON.parse(result.output as string) as Record<string, unknown>) : undefined,
      audit: audit.records,
    };
  };
}

const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'Old pond' }, model: 'm-1', stopReason: 'endTurn' };

describe('a round of questions', () => {
  it('reaches the ask handler whole, and each answer comes back checked', async () => {
    const seen: AskRequest[] = [];
    const run = setup({
      ask: async (request) => {
        seen.push(request);
        return {
          name: { action: 'accept', content: { name: 'Ada' } },
          poem: { action: 'accept', content: SAMPLED },
          roots: { action: 'accept', content: [{ uri: 'file:///w' }] },
        };
      },
    });
    const { answers } = await run();
    expect(answers).toEqual({
      name: { action: 'accept', content: { name: 'Ada' } },
      poem: { action: 'accept', content: SAMPLED },
      roots: { action: 'accept', content: [{ uri: 'file:///w' }] },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.questions).toEqual(ROUND);
    expect(Object.isFrozen(seen[0]!.questions)).toBe(true);
  });

  it('is audited: what was asked and how it was answered, never the content given', async () => {
    const run = setup({
      ask: async () => ({
        name: { action: 'accept', content: { name: 'Ada Lovelace' } },
        poem: { action: 'accept', content: SAMPLED },
        roots: { action: 'unavailable', message: 'no roots here' },
      }),
    });
    const { audit } = await run();
    const asked = audit.filter((record) => record.type === 'ToolAsked');
    expect(asked).toEqual([
      expect.objectContaining({
        callId: 'c',
        tool: 'asker',
        questions: { name: { kind: 'form', message: 'Your name?' }, poem: { kind: 'sample' }, roots: { kind: 'roots' } },
        answers: { name: { action: 'accept' }, poem: { action: 'accept' }, roots: { action: 'unavailable', message: 'no roots here' } },
      }),
    ]);
    // (The tool's own output, which here repeats the answers, is audited as any output is.)
    expect(JSON.stringify(asked)).not.toContain('Ada Lovelace');
    expect(JSON.stringify(asked)).not.toContain('Old pond');
  });

  it('asks only the forms of a host with an elicit handler, one by one; the rest is unavailable, saying why', async () => {
    const messages: string[] = [];
    const run = setup({ elicit: async (request) => (messages.push(request.message), { action: 'accept', content: { name: 'Ada' } }) });
    const { answers } = await run();
    expect(messages).toEqual(['Your name?']);
    expect(answers).toEqual({
      name: { action: 'accept', content: { name: 'Ada' } },
      poem: { action: 'unavailable', message: "this host cannot ask for a sample of its client's model" },
      roots: { action: 'unavailable', message: "this host cannot ask for its client's roots" },
    });
  });

  it('answers every question unavailable where the host cannot ask, or asking failed, or a key came back empty', async () => {
    expect((await setup({})()).answers).toMatchObject({ poem: { action: 'unavailable', message: expect.stringContaining('no way to ask') } });
    const failing = await setup({ ask: async () => Promise.reject(new Error('gone')) })();
    expect(Object.values(failing.answers!)).toEqual([
      { action: 'unavailable', message: 'asking failed: gone' },
      { action: 'unavailable', message: 'asking failed: gone' },
      { action: 'unavailable', message: 'asking failed: gone' },
    ]);
    const partial = await setup({ ask: async () => ({ name: { action: 'decline' } }) })();
    expect(partial.answers).toEqual({
      name: { action: 'decline' },
      poem: { action: 'unavailable', message: 'the host gave no answer to it' },
      roots: { action: 'unavailable', message: 'the host gave no answer to it' },
    });
  });

  it.each([
    [{ action: 'accept', content: { role: 'assistant', content: { type: 'text', text: 'x' } } }, 'the completion does not name its model'],
    [
      { action: 'accept', content: { role: 'system', content: { type: 'text', text: 'x' }, model: 'm' } },
      "the completion has a role that is not 'user' or 'assistant'",
    ],
    [
      { action: 'accept', content: { role: 'assistant', content: { type: 'video' }, model: 'm' } },
      "the completion has a content block that is not 'text', 'image' or 'audio'",
    ],
    [
      { action: 'accept', content: { role: 'assistant', content: { type: 'image', data: 'AA==' }, model: 'm' } },
      'the completion has an image without base64 data and a mimeType',
    ],
    [{ action: 'decline' }, 'the client gave no completion'],
  ])('never gives the tool a malformed completion: %j', async (answer, why) => {
    const { answers } = await setup({ ask: async () => ({ poem: answer }) })();
    expect(answers!.poem).toEqual({ action: 'unavailable', message: why });
  });

  it.each([
    [{ action: 'accept', content: 'file:///w' }, 'the client gave no list of roots'],
    [{ action: 'accept', content: [{ uri: '/etc' }] }, 'the client gave a root that is not a file:// URI: "/etc"'],
    [{ action: 'accept', content: [{ uri: 'file:///w\u001b[2J' }] }, 'not a file:// URI'],
    [{ action: 'accept', content: [{ uri: 'file:///w', name: 'w\u202e' }] }, 'whose name is not plain text'],
    [{ action: 'accept', content: Array.from({ length: 1001 }, (_, i) => ({ uri: `file:///r${i}` })) }, '1001 roots, over 1000'],
  ])('never gives the tool roots that are not file:// URIs of plain text: %j', async (answer, why) => {
    const { answers } = await setup({ ask: async () => ({ roots: answer }) })();
    expect(answers!.roots).toEqual({ action: 'unavailable', message: expect.stringContaining(why) });
  });

  it.each([
    [[], 'the questions are not an object of keyed questions'],
    [{}, 'there is nothing to ask'],
    [{ 'a b': { kind: 'roots' } }, 'the key "a b" is not letters, digits'],
    [{ ['k'.repeat(65)]: { kind: 'roots' } }, 'is not letters, digits'],
    [Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`q${i}`, { kind: 'roots' }])), '9 questions in one round, over 8'],
    [{ q: { kind: 'telepathy' } }, 'question \'q\': has kind "telepathy"'],
    [{ q: { kind: 'sample', messages: [], maxTokens: 5 } }, "question 'q': has no messages"],
    [{ q: { kind: 'sample', messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 0 } }, 'has maxTokens 0'],
    [
      { q: { kind: 'sample', messages: [{ role: 'tool', content: { type: 'text', text: 'x' } }], maxTokens: 5 } },
      "message 1 has a role that is not 'user' or 'assistant'",
    ],
    [
      { q: { kind: 'sample', messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5, stopSequences: [1] } },
      'stopSequences that are not strings',
    ],
    [{ q: { kind: 'form', message: '', schema: { type: 'object', properties: { a: { type: 'string' } } } } }, "question 'q': the question is empty"],
  ])("is the tool's own error, saying why, when a question is malformed: %j", async (questions, why) => {
    const asked: unknown[] = [];
    const { result } = await setup({ ask: async (request) => (asked.push(request), {}) }, questions)();
    expect(result.status).toBe('error');
    expect(result.content).toContain('getToolContext().ask: ');
    expect(result.content).toContain(why);
    expect(asked).toEqual([]);
  });
});
