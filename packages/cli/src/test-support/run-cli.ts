import { main } from '../cli.js';

/** Runs the CLI in this process, as a test sees it: the exit status and all it printed on each stream. */
export async function runCli(argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await main(argv, {
    out: (s) => {
      out += s;
      return true;
    },
    err: (s) => {
      err += s;
      return true;
    },
  });
  return { status, out, err };
}
