import fs from 'node:fs';
import path from 'node:path';
import type { CliIo } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { requireCompilerApi } from '../compiler-api.js';
import { preloadTypeScript } from '../typescript-code-cache.js';
import { readRecordedCalls } from './recorded-calls.js';
import { renderReplayModule } from './replay-module.js';

/**
 * `toolwright replay <log> --out <file.ts>`: reads the log, finds each recorded tool's signature (the core tools',
 * and with `project` the project's own), and writes the typed module (atomically). A tool without a signature
 * here is an error naming it and its calls.
 */
export async function writeReplayModule(options: { log: string; out: string; project?: string }, io: CliIo): Promise<number> {
  const recorded = readRecordedCalls(options.log);
  if (options.project !== undefined) {
    preloadTypeScript();
    requireCompilerApi('toolwright replay --out');
  }
  const { coreToolSignatures, projectToolSignatures } = await import('./tool-signatures.js');
  const signatures = coreToolSignatures();
  if (options.project !== undefined) for (const [name, signature] of projectToolSignatures(options.project)) signatures.set(name, signature);
  const missing = new Map<string, number[]>();
  for (const call of recorded.calls) if (!signatures.has(call.tool)) missing.set(call.tool, [...(missing.get(call.tool) ?? []), call.seq]);
  if (missing.size > 0) {
    const list = [...missing].map(([tool, seqs]) => `${tool} (seq ${seqs.join(', ')})`).join(', ');
    const hint =
      options.project === undefined
        ? ' Pass --project <tsconfig> for a project’s own tools.'
        : ' The project does not declare them (any more): run toolwright emit to see its tools.';
    throw new CliError(`${options.log}: calls of tools with no signature to type them by: ${list}.${hint}`, 1);
  }
  const out = path.resolve(options.out);
  const text = renderReplayModule(recorded.calls, signatures, out, path.basename(options.log));
  try {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const temporary = `${out}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, out);
  } catch (error) {
    throw new CliError(`Cannot write ${options.out}: ${(error as Error).message}`, 1);
  }
  const tools = new Set(recorded.calls.map((call) => call.tool)).size;
  io.err(
    `${recorded.calls.length} recorded call${recorded.calls.length === 1 ? '' : 's'} of ${tools} tool${tools === 1 ? '' : 's'} written to ${options.out}\n`,
  );
  if (recorded.unvalidated > 0)
    io.err(`note: ${recorded.unvalidated === 1 ? '1 call was' : `${recorded.unvalidated} calls were`} refused before the arguments were validated; left out\n`);
  if (recorded.torn) io.err('note: the log ends in a torn line (a crash mid-write); left out\n');
  return 0;
}
