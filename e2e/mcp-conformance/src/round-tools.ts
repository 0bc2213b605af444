import { getToolContext, tool, type ElicitSchema, type SampleQuestion } from '@toolwright/tool';

// The suite's 2026-07-28 `input_required` tools: each asks through `getToolContext().ask` under the key its scenario
// names; a 2025-11-25 client is asked the same questions one after another.

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const satisfies ElicitSchema;

function sample(text: string, maxTokens: number): SampleQuestion {
  return { kind: 'sample', messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens };
}

/** What a sample answered, as text. */
function sampled(answer: { action: string; content?: { content: { type: string; text?: string } }; message?: string }): string {
  if (answer.action !== 'accept') return `no answer (${answer.message ?? answer.action})`;
  return answer.content!.content.type === 'text' ? answer.content!.content.text! : `a ${answer.content!.content.type} answer`;
}

/** Asks the person's name, then greets them. */
export const test_input_required_result_elicitation = tool(
  async function test_input_required_result_elicitation(): Promise<string> {
    const { user_name } = await getToolContext()!.ask({ user_name: { kind: 'form', message: 'What is your name?', schema: NAME_FORM } });
    return user_name.action === 'accept' ? `Hello, ${user_name.content.name}!` : `Not introduced (${user_name.action})`;
  },
  { tier: 'read-only' },
);

/** Asks the client's model for the capital of France. */
export const test_input_required_result_sampling = tool(
  async function test_input_required_result_sampling(): Promise<string> {
    const { capital_question } = await getToolContext()!.ask({ capital_question: sample('What is the capital of France?', 100) });
    return `The model said: ${sampled(capital_question)}`;
  },
  { tier: 'read-only' },
);

/** Lists the client's roots. */
export const test_input_required_result_list_roots = tool(
  async function test_input_required_result_list_roots(): Promise<string> {
    const { client_roots } = await getToolContext()!.ask({ client_roots: { kind: 'roots' } });
    return client_roots.action === 'accept' ? `Roots: ${client_roots.content.map((root) => root.uri).join(', ')}` : `No roots (${client_roots.message})`;
  },
  { tier: 'read-only' },
);

/** Asks for a confirmation; the answer comes back with the state the server sealed, or not at all. */
export const test_input_required_result_request_state = tool(
  async function test_input_required_result_request_state(): Promise<string> {
    const { confirm } = await getToolContext()!.ask({
      confirm: { kind: 'form', message: 'Please confirm', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
    });
    // The server hands the tool an answer only with the very state it sealed for this call (verified, used once).
    return confirm.action === 'accept' ? `state-ok: confirmed ${confirm.content.ok}` : `not confirmed (${confirm.action})`;
  },
  { tier: 'read-only' },
);

/** Asks a name, a greeting from the client's model and the client's roots, in one round. */
export const test_input_required_result_multiple_inputs = tool(
  async function test_input_required_result_multiple_inputs(): Promise<string> {
    const answers = await getToolContext()!.ask({
      user_name: { kind: 'form', message: 'What is your name?', schema: NAME_FORM },
      greeting: sample('Generate a greeting', 50),
      client_roots: { kind: 'roots' },
    });
    const name = answers.user_name.action === 'accept' ? answers.user_name.content.name : 'nobody';
    const roots = answers.client_roots.action === 'accept' ? answers.client_roots.content.length : 0;
    return `${sampled(answers.greeting)}, ${name} (${roots} roots)`;
  },
  { tier: 'read-only' },
);

/** Asks a name, then a favourite colour: two rounds. */
export const test_input_required_result_multi_round = tool(
  async function test_input_required_result_multi_round(): Promise<string> {
    const context = getToolContext()!;
    const { step1 } = await context.ask({ step1: { kind: 'form', message: 'Step 1: What is your name?', schema: NAME_FORM } });
    if (step1.action !== 'accept') return `stopped at step 1 (${step1.action})`;
    const { step2 } = await context.ask({
      step2: {
        kind: 'form',
        message: 'Step 2: What is your favorite color?',
        schema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      },
    });
    if (step2.action !== 'accept') return `stopped at step 2 (${step2.action})`;
    return `${step1.content.name} likes ${step2.content.color}`;
  },
  { tier: 'read-only' },
);

/** Asks for a confirmation (the suite then tampers with the sealed state). */
export const test_input_required_result_tampered_state = tool(
  async function test_input_required_result_tampered_state(): Promise<string> {
    const { confirm } = await getToolContext()!.ask({
      confirm: { kind: 'form', message: 'Please confirm', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
    });
    return confirm.action === 'accept' ? 'confirmed' : `not confirmed (${confirm.action})`;
  },
  { tier: 'read-only' },
);

/** Asks the person and the client's model at once: each only where the client can answer. */
export const test_input_required_result_capabilities = tool(
  async function test_input_required_result_capabilities(): Promise<string> {
    const { person, model } = await getToolContext()!.ask({
      person: { kind: 'form', message: 'What is your name?', schema: NAME_FORM },
      model: sample('Suggest a name', 20),
    });
    return `person: ${person.action === 'accept' ? person.content.name : person.action}; model: ${sampled(model)}`;
  },
  { tier: 'read-only' },
);

/**
 * Asks the client's model to answer a prompt.
 * @param prompt What to ask the model.
 */
export const test_sampling = tool(
  async function test_sampling(prompt: string): Promise<string> {
    const { answer } = await getToolContext()!.ask({ answer: sample(prompt, 100) });
    return `LLM response: ${sampled(answer)}`;
  },
  { tier: 'read-only' },
);

/** Asks the client's model for a word; it cannot work without one, so a client that cannot sample is refused. */
export const test_missing_capability = tool(
  async function test_missing_capability(): Promise<string> {
    const { word } = await getToolContext()!.ask({ word: sample('Say one word', 5) });
    return `The model said: ${sampled(word)}`;
  },
  { tier: 'read-only', requiresClient: ['sampling'] },
);
