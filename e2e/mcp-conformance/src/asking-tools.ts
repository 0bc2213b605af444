import { getToolContext, tool } from '@toolwright/tool';

/** Reports progress 0, 50 and 100 of 100, 50 ms apart. */
export const test_tool_with_progress = tool(
  async function test_tool_with_progress(): Promise<string> {
    const context = getToolContext();
    for (const progress of [0, 50, 100]) {
      context?.progress({ progress, total: 100 });
      if (progress < 100) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'Progress test completed';
  },
  { tier: 'read-only' },
);

/**
 * Asks the person for their username and email.
 * @param message What to show the person.
 */
export const test_elicitation = tool(
  async function test_elicitation(message: string): Promise<string> {
    const answer = await getToolContext()!.elicit(message, {
      type: 'object',
      properties: {
        username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" },
      },
      required: ['username', 'email'],
    });
    return answer.action === 'accept' ? `User response: ${JSON.stringify(answer.content)}` : `The person did not answer (${answer.action})`;
  },
  { tier: 'read-only' },
);

/** Asks for a form whose every field has a default. */
export const test_elicitation_sep1034_defaults = tool(
  async function test_elicitation_sep1034_defaults(): Promise<string> {
    const answer = await getToolContext()!.elicit('Please review and update the form fields with defaults', {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`;
  },
  { tier: 'read-only' },
);

/** Asks for a form of every kind of choice: plain, titled, titled the old way, and multi-selects. */
export const test_elicitation_sep1330_enums = tool(
  async function test_elicitation_sep1330_enums(): Promise<string> {
    const answer = await getToolContext()!.elicit('Please select options from the enum fields', {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          description: 'Select one option with titles',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: {
          type: 'string',
          description: 'Select one option (legacy)',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          description: 'Select multiple options',
          minItems: 1,
          maxItems: 3,
          items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
      required: [],
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}`;
  },
  { tier: 'read-only' },
);
