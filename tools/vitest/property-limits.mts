import fc from 'fast-check';

// Every property test is bounded by runs (fast-check's 100 unless a test asks for fewer or more) and by time: past
// 20 seconds a property stops with the runs it made, none of which found a counterexample, and passes. On a busy
// machine it checks fewer cases rather than failing the run on its deadline; a counterexample found fails it as ever.
// An async run in progress at the limit is not stopped, only no longer waited for: a test whose runs act on files or
// processes waits for its calls still running before it checks or cleans up (core-tools' `test-support/in-flight.ts`).
fc.configureGlobal({ interruptAfterTimeLimit: 20_000 });

// A failing property prints its seed and path (fast-check's report); FAST_CHECK_SEED=<seed> runs every property
// of a run from that seed, to replay a run as a whole (`FAST_CHECK_SEED=42 npx vitest run <file>`).
const seed = process.env.FAST_CHECK_SEED;
if (seed !== undefined && seed !== '') {
  if (!/^-?\d+$/.test(seed)) throw new Error(`FAST_CHECK_SEED must be an integer, not ${JSON.stringify(seed)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
}
