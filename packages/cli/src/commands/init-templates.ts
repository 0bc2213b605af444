/** The tsconfig entries that run Toolwright under `tspc` and in editors (`toolwright build` needs none). */
export const TOOLWRIGHT_PLUGINS: readonly Readonly<Record<string, string | boolean>>[] = [
  { transform: '@toolwright/transformer' },
  { transform: '@toolwright/transformer/program', transformProgram: true },
  { name: '@toolwright/language-service' },
];

/** `{ "transform": "@toolwright/transformer" }`: an object on one line, as people write plugin entries and rules. */
export function inlineJson(entry: Readonly<Record<string, unknown>>): string {
  const value = (v: unknown) => (Array.isArray(v) ? `[${v.map((item) => JSON.stringify(item)).join(', ')}]` : JSON.stringify(v));
  return `{ ${Object.entries(entry)
    .map(([key, v]) => `${JSON.stringify(key)}: ${value(v)}`)
    .join(', ')} }`;
}

/** The tsconfig of a new project; docs/getting-started.md shows the same text (a test compares them). */
export const TSCONFIG_TEMPLATE = `{
  // Written by \`toolwright init\`. \`toolwright build\` compiles with these options and Toolwright's
  // transformers; the plugins make \`tspc\` (ts-patch) and your editor report the same tool errors.
  "compilerOptions": {
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "skipLibCheck": true,
    "rootDir": "src",
    "outDir": "dist",
    "plugins": [
${TOOLWRIGHT_PLUGINS.map((entry) => `      ${inlineJson(entry)}`).join(',\n')}
    ]
  },
  "include": ["src"]
}
`;

export const EXAMPLE_TOOLS_FILE = 'src/tools.ts';

export const EXAMPLE_TOOLS = `import { tool, type Integer } from '@toolwright/tool';

/**
 * Greets someone by name.
 * @param name Who to greet, e.g. "Ada".
 * @param times How many times to say it.
 */
export const greet = tool(async function greet(name: string, /** @minimum 1 @maximum 5 */ times: Integer = 1): Promise<string> {
  return Array.from({ length: times }, () => \`Hello, \${name}!\`).join(' ');
}, { tier: 'read-only' });

/**
 * Adds two numbers.
 * @tool
 * @tier read-only
 * @determinism pure
 * @param a First addend.
 * @param b Second addend.
 */
export async function addNumbers(a: number, b: number): Promise<number> {
  return a + b;
}
`;

export const CONFIG_FILE = 'toolwright.config.json';

export const POLICY_FILE = 'toolwright.policy.json';

/** A small config: the schema for editors, the workspace, two more shell commands, the starter policy. */
export const CONFIG_TEMPLATE = `${JSON.stringify(
  {
    $schema: './node_modules/@toolwright/cli/toolwright.config.schema.json',
    workspace: { root: '.' },
    shell: { allow: ['npm test', 'npm run build'] },
    policy: POLICY_FILE,
  },
  null,
  2,
)}\n`;

const DESTRUCTIVE_COMMANDS: readonly { pattern: string; match: string[]; notMatch?: string[] }[] = [
  { pattern: '*rm -r*', match: ['rm -rf dist', 'cd src && rm -r old'], notMatch: ['rm notes.txt'] },
  { pattern: '*rm -fr*', match: ['rm -fr dist'] },
  { pattern: '*rm --recursive*', match: ['rm --recursive --force dist'] },
  { pattern: '*git push*--force*', match: ['git push origin main --force'], notMatch: ['git push origin main'] },
  { pattern: '*git push -f*', match: ['git push -f'] },
  { pattern: '*git reset --hard*', match: ['git reset --hard HEAD~1'] },
  { pattern: '*git clean*', match: ['git clean -fdx'] },
  { pattern: '*sudo *', match: ['sudo ls'] },
];

const POLICY_RULES: readonly Record<string, unknown>[] = [
  ...DESTRUCTIVE_COMMANDS.map(({ pattern, match, notMatch }) => ({
    deny: `shell_exec(${pattern})`,
    reason: 'destructive command',
    match,
    ...(notMatch ? { not_match: notMatch } : {}),
  })),
  { ask: 'file_{write,edit,delete}' },
  { ask: 'vault_copyto' },
  { ask: 'shell_{exec,job_kill}' },
  { ask: 'web_*' },
  { allow: 'file_{read,list,search}' },
  { allow: 'glob' },
  { allow: 'shell_job_output' },
];

/** Refuses destructive shell commands, asks before anything writes, lets reads run; one rule a line. */
export const POLICY_TEMPLATE = `{\n  "rules": [\n${POLICY_RULES.map((rule) => `    ${inlineJson(rule)}`).join(',\n')}\n  ]\n}\n`;

/**
 * The npm scripts init adds. `serve` reads the policy through toolwright.config.json; it speaks MCP on
 * stdout, where npm prints its banner, so hosts run it as `npm run --silent serve`.
 */
export const SCRIPTS: Readonly<Record<string, string>> = {
  build: 'toolwright build',
  emit: 'toolwright emit',
  serve: 'toolwright serve --mcp stdio -p tsconfig.json',
};

/** The module `emit --module` writes on TypeScript 7: tsc (tsgo) compiles it with the tools; import it once before registering them. */
export const GENERATED_MODULE_FILE = 'src/tools.generated.ts';

/** On TypeScript 7 (no transformers): the native compiler writes the declarations' module, then tsc (tsgo) compiles. */
export const SCRIPTS_7: Readonly<Record<string, string>> = {
  build: `toolwright emit --module ${GENERATED_MODULE_FILE} && tsc -p tsconfig.json`,
  emit: `toolwright emit --module ${GENERATED_MODULE_FILE}`,
  serve: 'toolwright serve --mcp stdio -p tsconfig.json',
};

/** A tsconfig for TypeScript 7: no plugin entries (it loads none); \`toolwright emit\` reads the project through its API. */
export const TSCONFIG_TEMPLATE_7 = `{
  // Written by \`toolwright init\` for TypeScript 7. \`npm run build\` has the native compiler read the tools
  // (\`toolwright emit --module ${GENERATED_MODULE_FILE}\`), then tsc (tsgo) compiles them with that module.
  "compilerOptions": {
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "skipLibCheck": true,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`;
