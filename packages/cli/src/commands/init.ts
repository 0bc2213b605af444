import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { requireCompilerApi } from '../compiler-api.js';
import { CliError } from '../cli-error.js';
import { projectTypeScript } from '../project-typescript.js';
import { addToolwrightPlugins, effectivePlugins } from './init-tsconfig.js';
import { nextCommand, planPackageJson } from './init-package-json.js';
import {
  CONFIG_FILE,
  CONFIG_TEMPLATE,
  EXAMPLE_TOOLS,
  EXAMPLE_TOOLS_FILE,
  GENERATED_MODULE_FILE,
  POLICY_FILE,
  POLICY_TEMPLATE,
  SCRIPTS,
  SCRIPTS_7,
  TSCONFIG_TEMPLATE,
  TSCONFIG_TEMPLATE_7,
} from './init-templates.js';

export interface InitOptions {
  /** The project folder (created when missing). */
  dir: string;
  /** Overwrite files that exist and replace npm scripts of the same name (tsconfig.json is only ever added to). */
  force?: boolean;
  /**
   * The TypeScript to set up for: 7 (the native compiler: `emit --module`, then tsc) or 6 (the transformers,
   * the editor plugin); by default the major of the `typescript` the folder resolves, else 6.
   */
  typescript?: string;
}

/** The version `init` pins for a project that has no TypeScript yet, by major. */
const TYPESCRIPT_PINS = { 6: '6.0.3', 7: '7.0.2' } as const;

export interface InitStep {
  /** Relative to the project folder. */
  file: string;
  action: 'created' | 'updated' | 'unchanged' | 'skipped';
  detail?: string;
}

export interface InitResult {
  steps: InitStep[];
  notes: string[];
  /** The command to run next: install what the project lacks, then build. */
  next: string;
  /**
   * The entry an MCP client's `mcpServers` takes to serve the project, with absolute paths only: clients start
   * servers in `/` (Claude Desktop) or ignore `cwd` (Claude Code).
   */
  mcpServer: { command: string; args: string[] };
}

interface PlannedStep extends InitStep {
  /** What to write; undefined writes nothing. */
  text?: string;
}

/**
 * `toolwright init`: sets up a project for Toolwright tools, in an empty folder or an existing
 * TypeScript project. Everything is planned before anything is written, so a tsconfig or package.json
 * that cannot be read stops the command with no file changed.
 */
export function init(options: InitOptions): InitResult {
  const dir = path.resolve(options.dir);
  if (options.typescript !== undefined && options.typescript !== '6' && options.typescript !== '7')
    throw new CliError(`--typescript takes 6 or 7, not '${options.typescript}'.`, 2);
  const found = fs.existsSync(dir) ? projectTypeScript(dir) : undefined;
  const major: 6 | 7 = options.typescript === '7' ? 7 : options.typescript === '6' ? 6 : found?.major === 7 ? 7 : 6;
  if (major === 6) requireCompilerApi('toolwright init');
  if (major === 7 && found?.major === 6 && found.packageDir)
    throw new CliError(`--typescript 7: this project resolves TypeScript ${found.version}; install TypeScript 7 first (npm i -D typescript@7).`, 2);
  const force = options.force ?? false;
  const read = (file: string) => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined);
  const packageJson = planPackageJson(dir, read('package.json'), force, major === 7 ? SCRIPTS_7 : SCRIPTS);
  const steps: PlannedStep[] = [
    major === 7 ? planTsconfig7(read('tsconfig.json')) : planTsconfig(path.join(dir, 'tsconfig.json'), read('tsconfig.json')),
    planFile(EXAMPLE_TOOLS_FILE, EXAMPLE_TOOLS, read(EXAMPLE_TOOLS_FILE), force),
    planFile(CONFIG_FILE, CONFIG_TEMPLATE, read(CONFIG_FILE), force),
    planFile(POLICY_FILE, POLICY_TEMPLATE, read(POLICY_FILE), force),
    packageJsonStep(packageJson, read('package.json') === undefined),
  ];
  for (const step of steps) {
    if (step.text === undefined) continue;
    fs.mkdirSync(path.dirname(path.join(dir, step.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, step.file), step.text);
  }
  const version = found?.packageDir !== undefined && found.major === major ? found.version : TYPESCRIPT_PINS[major];
  return {
    steps: steps.map(({ text: _text, ...step }) => step),
    notes:
      major === 7
        ? [
            `on TypeScript 7, \`npm run build\` writes ${GENERATED_MODULE_FILE} (the declarations) before tsc compiles; import it once before registering the tools in your own program.`,
          ]
        : compiledFilesNote(dir),
    next: nextCommand(packageJson.manifest, version, major),
    mcpServer: mcpServerEntry(dir),
  };
}

/** `npm --prefix <dir> run serve` runs the project's `serve` script in <dir>, wherever the client starts it; the workspace is named too. */
export function mcpServerEntry(dir: string): InitResult['mcpServer'] {
  return { command: 'npm', args: ['--prefix', dir, 'run', '--silent', 'serve', '--', '--workspace', dir] };
}

/** TypeScript 7 loads no plugin entries: a tsconfig is written when there is none, and an existing one is left as it is. */
function planTsconfig7(existing: string | undefined): PlannedStep {
  const file = 'tsconfig.json';
  if (existing === undefined) return { file, action: 'created', text: TSCONFIG_TEMPLATE_7 };
  return { file, action: 'unchanged', detail: 'TypeScript 7 needs no plugin entries' };
}

/** The lines `toolwright init` prints. */
export function formatInitResult(result: InitResult): string {
  const width = 'unchanged'.length;
  const lines = result.steps.map((step) => `${step.action.padEnd(width)}  ${step.file}${step.detail ? ` (${step.detail})` : ''}`);
  return [
    ...lines,
    ...result.notes.map((note) => `note: ${note}`),
    '',
    'Next:',
    `  ${result.next}`,
    'Then `npx toolwright list -p tsconfig.json` lists your tools. An MCP client serves them with this entry in its',
    '"mcpServers" (absolute paths: clients start servers in / or ignore "cwd"):',
    `  ${JSON.stringify({ [path.basename(result.mcpServer.args[1] ?? 'tools') || 'tools']: result.mcpServer })}`,
    '',
  ].join('\n');
}

function planTsconfig(configPath: string, existing: string | undefined): PlannedStep {
  const file = 'tsconfig.json';
  if (existing === undefined) return { file, action: 'created', text: TSCONFIG_TEMPLATE };
  const edit = addToolwrightPlugins(existing, configPath, effectivePlugins(configPath));
  if (edit.text === undefined) return { file, action: 'unchanged', detail: 'it has the Toolwright plugin entries' };
  return {
    file,
    action: 'updated',
    detail: `added ${edit.added.join(', ')} to compilerOptions.plugins; your other settings are as they were`,
    text: edit.text,
  };
}

function planFile(file: string, content: string, existing: string | undefined, force: boolean): PlannedStep {
  if (existing === undefined) return { file, action: 'created', text: content };
  if (existing === content) return { file, action: 'unchanged' };
  if (force) return { file, action: 'updated', detail: 'overwritten (--force)', text: content };
  return { file, action: 'skipped', detail: 'it exists; --force overwrites it' };
}

function packageJsonStep(plan: ReturnType<typeof planPackageJson>, isNew: boolean): PlannedStep {
  const file = 'package.json';
  const details = [
    ...(plan.added.length > 0 ? [`added scripts ${plan.added.join(', ')}`] : []),
    ...(plan.replaced.length > 0 ? [`replaced scripts ${plan.replaced.join(', ')} (--force)`] : []),
    ...plan.kept.map((script) => `kept your "${script.name}" script (${script.command}); --force replaces it`),
  ];
  const detail = details.length > 0 ? details.join('; ') : undefined;
  const action = isNew ? 'created' : plan.text !== undefined ? 'updated' : plan.kept.length > 0 ? 'skipped' : 'unchanged';
  return { file, action, ...(detail !== undefined ? { detail } : {}), ...(plan.text !== undefined ? { text: plan.text } : {}) };
}

/** An existing tsconfig may not compile src/tools.ts (`include` elsewhere, or `files`). */
function compiledFilesNote(dir: string): string[] {
  const configPath = path.join(dir, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  if (read.error) return [];
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, configPath);
  const tools = path.join(dir, EXAMPLE_TOOLS_FILE);
  if (parsed.fileNames.some((name) => path.resolve(name) === tools)) return [];
  return [`tsconfig.json does not compile ${EXAMPLE_TOOLS_FILE}; add it to "include" (or "files") to build the example tools.`];
}
