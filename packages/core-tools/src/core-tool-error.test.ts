import { afterAll, describe, expect, it } from 'vitest';
import { CoreToolError } from './core-tool-error.js';
import { tempWorkspace } from './test-support/temp-workspace.js';
import { FileEditTool } from './tools/file-edit.js';
import { FileSearchTool } from './tools/file-search.js';
import { GlobTool } from './tools/glob.js';
import { ShellTool } from './tools/shell-exec.js';
import { VaultTool } from './tools/vault-copyto.js';
import { WebFetchTool } from './tools/web-fetch.js';
import { WebSearchTool } from './tools/web-search.js';
import { WorkspaceError } from './workspace/workspace-error.js';

const ws = tempWorkspace({ 'app.js': 'let a = 1;\nlet b = 1;\n', 'copy.md': 'x' });

/** Each failure: the call, its code, and the start of the sentence that says what to do. */
const FAILURES: [string, () => Promise<unknown>, string, RegExp][] = [
  [
    'file_edit of absent text',
    () => new FileEditTool(ws.env).fileEdit('app.js', 'let c', 'let d'),
    'no_match',
    /^The text to replace was not found in 'app\.js'.*[Cc]opy the exact text/s,
  ],
  [
    'file_edit of repeated text',
    () => new FileEditTool(ws.env).fileEdit('app.js', '= 1;', '= 2;'),
    'ambiguous_match',
    /^The text to replace occurs 2 times .* or set replaceAll: true\.$/,
  ],
  [
    'file_edit with a stale hash',
    () => new FileEditTool(ws.env).fileEdit('app.js', 'let a', 'let z', false, 'exact', '0'.repeat(64)),
    'stale_read',
    /read it again with file_read/,
  ],
  [
    'file_edit with a bad regex',
    () => new FileEditTool(ws.env).fileEdit('app.js', 'let (', 'x', false, 'regex'),
    'invalid_pattern',
    /^`oldText` is not a valid regular expression: .*use mode: "exact" with the literal text\.$/,
  ],
  ['file_edit outside the workspace', () => new FileEditTool(ws.env).fileEdit('../x.js', 'a', 'b'), 'outside_workspace', /outside/],
  ['file_search with a bad regex', () => new FileSearchTool({ ...ws.env, ripgrep: false }).fileSearch('func('), 'invalid_pattern', /Pass literal: true/],
  ['glob with an empty pattern', () => new GlobTool(ws.env).glob(' '), 'invalid_pattern', /give a glob such as/],
  ['shell_exec of a refused command', () => new ShellTool(ws.env).shellExec('echo $(id)'), 'command_refused', /^The command was refused: command substitution/],
  ['shell_exec of an empty command', () => new ShellTool(ws.env).shellExec('  '), 'invalid_command', /give the command line to run/],
  [
    'shell_exec with escalate that no person confirmed',
    () => new ShellTool(ws.env).shellExec('ls', undefined, false, true),
    'escalation_unconfirmed',
    /^Running a command outside the sandbox \(escalate: true\) needs a person to confirm .*Run it without escalate, or ask the user to run it\.$/,
  ],
  [
    'shell_exec where the shell is disabled',
    () => new ShellTool({ ...ws.env, shell: { backend: 'disabled' } }).shellExec('ls'),
    'not_configured',
    /Use the file tools instead\.$/,
  ],
  ['shell_job_output of an unknown job', () => new ShellTool(ws.env).shellJobOutput('job-9'), 'unknown_job', /No jobs are running\.$/],
  ['vault_copyto without a vault', () => new VaultTool(ws.env).vaultCopyto('a.md'), 'not_configured', /go on without it/],
  ['web_search without a provider', () => new WebSearchTool(ws.env).webSearch('q'), 'not_configured', /fetch a known URL with web_fetch/],
  ['web_fetch of a file: URL', () => new WebFetchTool(ws.env).webFetch('file:///etc/passwd'), 'invalid_url', /only http and https/],
  ['web_fetch of a private address', () => new WebFetchTool(ws.env).webFetch('http://10.0.0.1/'), 'address_refused', /refused 10\.0\.0\.1/],
];

describe(CoreToolError, () => {
  afterAll(() => ws.cleanup());

  it.for(FAILURES)('%s fails with a code and a sentence that says what to do', async ([, call, code, message]) => {
    const error = await call().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CoreToolError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('is the base of the workspace refusals, which keep their path', () => {
    const refusal = new WorkspaceError('not_found', "'a.txt' does not exist.", 'a.txt');
    expect(refusal).toBeInstanceOf(CoreToolError);
    expect(refusal).toMatchObject({ code: 'not_found', path: 'a.txt', name: 'WorkspaceError' });
  });
});
