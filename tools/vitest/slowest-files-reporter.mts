import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten test files that took longest (their tests and hooks, and their import), after the run: where the
 * suite's time goes, every run, so a file that grew slow is seen before the suite as a whole is.
 */
export class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const timed = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return { file: module.relativeModuleId, ms: diagnostic.duration + diagnostic.collectDuration };
    });
    const slowest = timed.sort((a, b) => b.ms - a.ms).slice(0, 10);
    const total = timed.reduce((sum, each) => sum + each.ms, 0);
    const lines = slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(`\nSlowest test files (of ${testModules.length}, ${(total / 1000).toFixed(0)} s in all across workers):\n${lines.join('\n')}\n`);
  }
}
