import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { addToolwrightPlugins } from './init-tsconfig.js';

const ENTRIES = [
  { transform: '@toolwright/transformer' },
  { transform: '@toolwright/transformer/program', transformProgram: true },
  { name: '@toolwright/language-service' },
];

function edited(text: string, inherited: object[] = []) {
  const edit = addToolwrightPlugins(text, 'tsconfig.json', inherited as Record<string, unknown>[]);
  const parsed = ts.parseConfigFileTextToJson('tsconfig.json', edit.text ?? text);
  expect(parsed.error).toBeUndefined();
  return { ...edit, config: parsed.config as { compilerOptions: { plugins: object[] } & Record<string, unknown> } & Record<string, unknown> };
}

describe(addToolwrightPlugins, () => {
  it('adds the plugins after the last option, keeping comments and every other setting', () => {
    const text = [
      '{',
      '  // Shared settings.',
      '  "extends": "./base.json",',
      '  "compilerOptions": {',
      '    /* Node 20 */',
      '    "target": "es2022",',
      '    "strict": true // keep strict',
      '  },',
      '  "include": ["src"],',
      '}',
      '',
    ].join('\n');
    const { text: result, added, config } = edited(text);
    expect(result).toBe(
      [
        '{',
        '  // Shared settings.',
        '  "extends": "./base.json",',
        '  "compilerOptions": {',
        '    /* Node 20 */',
        '    "target": "es2022",',
        '    "strict": true, // keep strict',
        '    "plugins": [',
        '      { "transform": "@toolwright/transformer" },',
        '      { "transform": "@toolwright/transformer/program", "transformProgram": true },',
        '      { "name": "@toolwright/language-service" }',
        '    ]',
        '  },',
        '  "include": ["src"],',
        '}',
        '',
      ].join('\n'),
    );
    expect(added).toEqual(['@toolwright/transformer', '@toolwright/transformer/program', '@toolwright/language-service']);
    expect(config).toEqual({ extends: './base.json', compilerOptions: { target: 'es2022', strict: true, plugins: ENTRIES }, include: ['src'] });
  });

  it('appends only the missing entries to an existing plugins array', () => {
    const text =
      '{\n  "compilerOptions": {\n    "plugins": [\n      { "name": "other-plugin" },\n      { "transform": "@toolwright/transformer" },\n    ]\n  }\n}\n';
    const { added, config } = edited(text);
    expect(added).toEqual(['@toolwright/transformer/program', '@toolwright/language-service']);
    expect(config.compilerOptions.plugins).toEqual([{ name: 'other-plugin' }, ENTRIES[0], ENTRIES[1], ENTRIES[2]]);
  });

  it.for([
    ['no compilerOptions', '{\n  "include": ["src"]\n}\n', { include: ['src'], compilerOptions: { plugins: ENTRIES } }],
    ['an empty compilerOptions', '{ "compilerOptions": {} }', { compilerOptions: { plugins: ENTRIES } }],
    ['an empty plugins array', '{ "compilerOptions": { "plugins": [] } }', { compilerOptions: { plugins: ENTRIES } }],
    ['an empty file object', '{}', { compilerOptions: { plugins: ENTRIES } }],
    ['tabs', '{\n\t"compilerOptions": {\n\t\t"strict": true\n\t}\n}\n', { compilerOptions: { strict: true, plugins: ENTRIES } }],
  ] as const)('handles %s', ([, text, expected]) => {
    expect(edited(text).config).toEqual(expected);
  });

  it('copies plugins inherited through extends, since a plugins key here replaces them', () => {
    const { config } = edited('{ "extends": "./base.json", "compilerOptions": { "strict": true } }', [{ name: 'inherited-plugin' }]);
    expect(config.compilerOptions.plugins).toEqual([{ name: 'inherited-plugin' }, ...ENTRIES]);
  });

  it('changes nothing when every entry is there, here or inherited', () => {
    const complete = `{ "compilerOptions": { "plugins": ${JSON.stringify(ENTRIES)} } }`;
    expect(addToolwrightPlugins(complete, 'tsconfig.json')).toEqual({ text: undefined, added: [] });
    expect(addToolwrightPlugins('{ "extends": "./base.json" }', 'tsconfig.json', ENTRIES)).toEqual({ text: undefined, added: [] });
  });

  it.for([
    ['{ "compilerOptions": { "strict": true ', /cannot add the Toolwright entries/],
    ['[]', /must be an object/],
    ['{ "compilerOptions": [] }', /"compilerOptions" must be an object/],
    ['{ "compilerOptions": { "plugins": {} } }', /"compilerOptions.plugins" must be an array/],
  ] as const)('refuses %j with a CliError', ([text, message]) => {
    expect(() => addToolwrightPlugins(text, 'tsconfig.json')).toThrow(CliError);
    expect(() => addToolwrightPlugins(text, 'tsconfig.json')).toThrow(message);
  });
});
