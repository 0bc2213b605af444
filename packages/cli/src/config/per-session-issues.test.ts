import { describe, expect, it } from 'vitest';
import { perSessionIssues } from './per-session-issues.js';

const project = { path: 'tsconfig.json', toolkits: ['Tally', 'SharedTally', 'Configured'], skipped: ['Configured'] };

describe(perSessionIssues, () => {
  it('accepts toolkit classes the project exports and can construct', () => {
    expect(perSessionIssues(['Tally', 'SharedTally'], project)).toEqual([]);
    expect(perSessionIssues([], { path: 'p', toolkits: [], skipped: [] })).toEqual([]);
  });

  it.for([
    [
      ['Taly'],
      project,
      [
        {
          path: '$.tools.perSession[0]',
          message: '"Taly" is not a toolkit class exported by tsconfig.json; its toolkit classes are: Tally, SharedTally, Configured',
        },
      ],
    ],
    [
      ['Tally', 'tallyBump'],
      project,
      [
        {
          path: '$.tools.perSession[1]',
          message: '"tallyBump" is not a toolkit class exported by tsconfig.json; its toolkit classes are: Tally, SharedTally, Configured',
        },
      ],
    ],
    [
      ['Tally'],
      { path: 'other/tsconfig.json', toolkits: [], skipped: [] },
      [
        {
          path: '$.tools.perSession[0]',
          message: '"Tally" is not a toolkit class exported by other/tsconfig.json; it exports no toolkit classes (classes with @tool() methods)',
        },
      ],
    ],
    [
      ['Configured'],
      project,
      [
        {
          path: '$.tools.perSession[0]',
          message:
            "Configured's constructor takes arguments, so toolwright cannot make one per session; give it a constructor without parameters, or construct it in your own program",
        },
      ],
    ],
  ] as const)('reports %j', ([names, given, issues]) => {
    expect(perSessionIssues(names, given)).toEqual(issues);
  });
});
