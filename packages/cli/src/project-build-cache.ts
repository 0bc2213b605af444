import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** CommonJS, or ES modules. */
export type ModuleFormat = 'commonjs' | 'module';

/** A project compiled for `-p`: where its tool modules are, what they were emitted from, and as what. */
export interface ProjectBuild {
  /** Absolute paths of the emitted JS files that define tools. */
  toolModules: string[];
  /** The source file each was emitted from. */
  sources: string[];
  outDir: string;
  /** The module system the project runs as, which its JavaScript was emitted for. */
  format: ModuleFormat;
}

/** What a build read, recorded beside it: with none of it changed, the next start serves the build as it is. */
interface BuildRecord extends Omit<ProjectBuild, 'outDir'> {
  version: 1;
  /** The compiler and transformer it was made with. */
  generator: string;
  /** Every file the compiler read (sources, declarations, the tsconfigs, package.json), with its size and time. */
  files: [file: string, size: number, mtimeMs: number][];
  /** The folders the project's files are found in (a file added changes its folder's time), with their times. */
  folders: [folder: string, mtimeMs: number][];
}

const RECORD = 'build.json';

/** Where `-p` compiles a project: a cache folder inside its `node_modules`, so its package imports resolve. */
export function buildFolder(configPath: string): string {
  const key = crypto.createHash('sha256').update(configPath).digest('hex').slice(0, 12);
  return path.join(path.dirname(configPath), 'node_modules', '.cache', 'toolwright', key);
}

/** The tsconfig a `-p` argument names (a folder means its tsconfig.json), without loading the compiler. */
export function configPathOf(project: string, cwd = process.cwd()): string {
  const resolved = path.resolve(cwd, project);
  try {
    return fs.statSync(resolved).isDirectory() ? path.join(resolved, 'tsconfig.json') : resolved;
  } catch {
    return resolved;
  }
}

/**
 * The last build of the project, when nothing it read has changed since (no source, declaration, tsconfig or
 * package.json changed, no file added to its folders, the same compiler and transformer): the build is served as it
 * is, with no compiler loaded. Otherwise what changed, for the note that says why it is compiled.
 */
export function freshBuild(configPath: string): { build: ProjectBuild } | { stale: string } {
  const outDir = buildFolder(configPath);
  let record: BuildRecord;
  try {
    record = JSON.parse(fs.readFileSync(path.join(outDir, RECORD), 'utf8')) as BuildRecord;
  } catch {
    return { stale: 'no build of it yet' };
  }
  if (record.version !== 1 || record.generator !== generator()) return { stale: 'Toolwright or TypeScript changed since its last build' };
  for (const [file, size, mtimeMs] of record.files) {
    const stat = statOrUndefined(file);
    if (!stat || stat.size !== size || stat.mtimeMs !== mtimeMs) return { stale: `${path.relative(process.cwd(), file) || file} changed since its last build` };
  }
  for (const [folder, mtimeMs] of record.folders) {
    if (statOrUndefined(folder)?.mtimeMs !== mtimeMs) return { stale: `files were added to or removed from ${path.relative(process.cwd(), folder) || folder}` };
  }
  if (!record.toolModules.every((file) => fs.existsSync(file))) return { stale: 'its last build is incomplete' };
  return { build: { toolModules: record.toolModules, sources: record.sources, format: record.format, outDir } };
}

/** Records what a build read (`files`: every file the compiler read; `folders`: where the project's files are found). */
export function recordBuild(build: ProjectBuild, files: readonly string[], folders: readonly string[]): void {
  const stamp = (file: string) => {
    const stat = statOrUndefined(file);
    return stat ? ([file, stat.size, stat.mtimeMs] as [string, number, number]) : undefined;
  };
  const record: BuildRecord = {
    version: 1,
    generator: generator(),
    toolModules: build.toolModules,
    sources: build.sources,
    format: build.format,
    files: [...new Set(files)].map(stamp).filter((entry) => entry !== undefined),
    folders: [...new Set(folders)].flatMap((folder) => {
      const stat = statOrUndefined(folder);
      return stat ? [[folder, stat.mtimeMs] as [string, number]] : [];
    }),
  };
  fs.writeFileSync(path.join(build.outDir, RECORD), JSON.stringify(record));
}

/**
 * The compiler and the transformer this CLI compiles with: their versions, and the time the transformer was built
 * (its build info, in a checkout: a rebuilt transformer may declare tools differently at the same version).
 */
function generator(): string {
  const load = createRequire(__filename);
  const parts: string[] = [];
  for (const entry of ['typescript/package.json', '@toolwright/transformer/package.json']) {
    try {
      const file = load.resolve(entry);
      parts.push(String((load(file) as { version?: unknown }).version));
      const buildInfo = statOrUndefined(path.join(path.dirname(file), 'dist', '.tsbuildinfo'));
      if (buildInfo) parts.push(String(buildInfo.mtimeMs));
    } catch {
      parts.push('none');
    }
  }
  return parts.join(':');
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
