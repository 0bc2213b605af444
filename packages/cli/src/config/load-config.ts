import fs from 'node:fs';
import path from 'node:path';
import { SchemaValidator } from '@toolwright/executor';
import { isPlaceholder } from '@toolwright/sandbox';
import { emptyFileProblem } from './empty-file.js';
import { CliError } from '../cli-error.js';
import { checkConfig } from './check-config.js';
import { configIssuesOf, formatConfigIssues } from './config-issues.js';
import { configSchema } from './config-schema.js';
import type { ToolwrightConfig } from './toolwright-config.js';

export const CONFIG_FILE_NAME = 'toolwright.config.json';

/** A config file that passed its schema and checks; relative paths in it resolve against `dir`. */
export interface LoadedConfig {
  file: string;
  dir: string;
  config: ToolwrightConfig;
}

/**
 * The config file to use: `--config <file>` (which must exist), else `toolwright.config.json` in
 * the current directory, else in the workspace given by `--workspace`; none is fine. The empty placeholder the
 * shell's sandbox holds a missing config file with (and a host killed outright leaves behind until another sweeps
 * it) stands for no file: it is not there (a twelfth pass found every later `toolwright call` refused on one).
 */
export function findConfigFile(options: { config?: string; workspace?: string; cwd?: string }): string | undefined {
  const cwd = options.cwd ?? process.cwd();
  if (options.config !== undefined) {
    const file = path.resolve(cwd, options.config);
    if (!fs.existsSync(file) || isPlaceholder(file)) throw new CliError(`--config ${options.config}: no such file.`, 2);
    return file;
  }
  const candidates = [
    path.join(cwd, CONFIG_FILE_NAME),
    ...(options.workspace !== undefined ? [path.join(path.resolve(cwd, options.workspace), CONFIG_FILE_NAME)] : []),
  ];
  return candidates.find((file) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() && !isPlaceholder(file));
}

/** Reads, parses and checks a config file; every problem is a usage error naming the file and the key. */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read the config file ${file}: ${(error as Error).message}`, 2);
  }
  const empty = emptyFileProblem(file, text);
  if (empty) throw new CliError(empty, 2);
  const config = parseConfigText(file, text);
  const schema = configSchema();
  const issues = configIssuesOf(new SchemaValidator().validate(schema, config), schema, config);
  if (issues.length === 0) issues.push(...checkConfig(config as ToolwrightConfig, env));
  if (issues.length > 0) throw new CliError(formatConfigIssues(file, issues), 2);
  return { file, dir: path.dirname(file), config: config as ToolwrightConfig };
}

/** The file's JSON, or an error that points at the line and column where parsing stopped. */
function parseConfigText(file: string, text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    let where = '';
    if (position && !/line \d+ column \d+/.test(message)) {
      const before = text.slice(0, Number(position[1])).split('\n');
      where = ` (line ${before.length} column ${before[before.length - 1]!.length + 1})`;
    }
    throw new CliError(`${file}: $: is not valid JSON: ${message}${where}`, 2);
  }
}
