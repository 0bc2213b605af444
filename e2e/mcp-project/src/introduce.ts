import { getToolContext, tool } from '@toolwright/tool';

/**
 * Greets the person running it: asks their name, then their favourite colour (two questions, one after the other).
 */
export const introduce = tool(
  async function introduce(): Promise<string> {
    const context = getToolContext();
    if (!context) return 'nobody to ask';
    const name = await context.elicit('What is your name?', { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] });
    if (name.action !== 'accept') return `not introduced: ${name.action === 'unavailable' ? name.message : `the person chose ${name.action}`}`;
    const colour = await context.elicit(`Hello, ${name.content.name}! Your favourite colour?`, {
      type: 'object',
      properties: { colour: { type: 'string', enum: ['red', 'green', 'teal'] } },
      required: ['colour'],
    });
    if (colour.action !== 'accept') return `Hello, ${name.content.name}!`;
    return `Hello, ${name.content.name}! You like ${colour.content.colour}.`;
  },
  { tier: 'read-only' },
);
