import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '@toolwright/schema';
import { checkMessage } from './emit-check-message.js';

const declaration = (required: string[]): ToolDeclaration =>
  ({
    name: 'greet',
    description: 'Greets someone.',
    parameterOrder: ['name', 'title'],
    parameters: { type: 'object', properties: { name: { type: 'string' }, title: { type: 'string' } }, required, additionalProperties: false },
    metadata: {},
  }) as unknown as ToolDeclaration;

describe(checkMessage, () => {
  it('lists the drift, then the breaking changes since the committed manifest', () => {
    const committed = `${JSON.stringify([declaration(['name'])], null, 2)}\n`;
    expect(checkMessage('tools.json', ['~ greet (changed)'], committed, [declaration(['name', 'title'])])).toBe(
      [
        'tools.json is out of date with the tool signatures:',
        '  ~ greet (changed)',
        'Breaking changes since tools.json (calls valid against it may now be refused, or their results read differently):',
        '  greet $.title: made required',
        'Run `toolwright emit` without --check and commit the result.',
      ].join('\n'),
    );
  });

  it('says there are none when the changes only widen', () => {
    const committed = JSON.stringify([declaration(['name', 'title'])]);
    expect(checkMessage('tools.json', ['~ greet (changed)'], committed, [declaration(['name'])])).toContain('No breaking changes since tools.json');
  });

  it('leaves the comparison out for a module or a manifest that is not one', () => {
    for (const manifest of [undefined, '{ not json']) {
      expect(checkMessage('tools.json', ['(generated module differs)'], manifest, [declaration(['name'])])).not.toMatch(/breaking/i);
    }
  });
});
