import path from 'node:path';
import { CliError } from '../cli-error.js';
import { SCRIPTS } from './init-templates.js';

interface PackageJson {
  name?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

export interface PackageJsonPlan {
  /** The new text, or undefined when nothing changes. */
  text: string | undefined;
  manifest: PackageJson;
  added: string[];
  replaced: string[];
  /** Scripts of the same name that were kept, with their command. */
  kept: { name: string; command: string }[];
}

/**
 * The project's package.json with the `build`, `emit` and `serve` scripts: a new one when `existing`
 * is undefined; otherwise merged in, keeping every other key and any script of the same name unless
 * `force` is set.
 */
export function planPackageJson(
  dir: string,
  existing: string | undefined,
  force: boolean,
  wanted: Readonly<Record<string, string>> = SCRIPTS,
): PackageJsonPlan {
  let manifest: PackageJson;
  if (existing === undefined) {
    manifest = { name: packageName(path.basename(dir)), version: '0.1.0', private: true };
  } else {
    try {
      manifest = JSON.parse(existing) as PackageJson;
    } catch (error) {
      throw new CliError(`package.json: cannot add the scripts, it is not valid JSON: ${(error as Error).message}`, 1);
    }
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
      throw new CliError('package.json: cannot add the scripts, it is not a JSON object.', 1);
  }
  const scripts = { ...(manifest.scripts ?? {}) };
  const plan: PackageJsonPlan = { text: undefined, manifest, added: [], replaced: [], kept: [] };
  for (const [name, command] of Object.entries(wanted)) {
    const current = scripts[name];
    if (current === command) continue;
    if (current !== undefined && !force) {
      plan.kept.push({ name, command: current });
      continue;
    }
    (current === undefined ? plan.added : plan.replaced).push(name);
    scripts[name] = command;
  }
  if (existing === undefined || plan.added.length + plan.replaced.length > 0) {
    manifest.scripts = scripts;
    plan.text = `${JSON.stringify(manifest, null, existing === undefined ? 2 : indentOf(existing))}\n`;
  }
  return plan;
}

/** What to install and run next: the packages the manifest does not list yet, then the build. */
export function nextCommand(manifest: PackageJson, typescriptVersion: string, major: 6 | 7 = 6): string {
  const listed = (name: string) => [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies].some((deps) => deps?.[name] !== undefined);
  const runtime = ['@toolwright/tool'].filter((name) => !listed(name));
  // TypeScript 7 runs no transformer and loads no editor plugin: the CLI alone reads the tools.
  const toolwright = major === 7 ? ['@toolwright/cli'] : ['@toolwright/cli', '@toolwright/transformer', '@toolwright/language-service'];
  const dev = [`typescript@${typescriptVersion}`, ...toolwright].filter((spec) => !listed(spec.replace(/(.)@.*$/, '$1')));
  return [
    ...(runtime.length > 0 ? [`npm install ${runtime.join(' ')}`] : []),
    ...(dev.length > 0 ? [`npm install --save-dev ${dev.join(' ')}`] : []),
    'npm run build',
  ].join(' && ');
}

/** A valid npm package name from a folder name. */
function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'tools' : name;
}

/** The indentation the file uses (npm writes two spaces; some projects use tabs or four). */
function indentOf(text: string): string | number {
  const first = /\n([ \t]+)\S/.exec(text);
  return first ? first[1]! : 2;
}
