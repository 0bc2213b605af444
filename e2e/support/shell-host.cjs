// A host process for the process-lifetime tests: runs one shell_exec call with the built core tools
// and prints "running <pid>" once the call has started. argv: workspace, backend, command, background,
// and the sandbox mode (default: TOOLWRIGHT_TEST_SANDBOX, else auto).
const { ShellTool, WorkspacePolicy } = require('@toolwright/core-tools');

const [workspace, backend, command, background, sandbox = process.env.TOOLWRIGHT_TEST_SANDBOX ?? 'auto'] = process.argv.slice(2);
const tool = new ShellTool({
  workspace: new WorkspacePolicy({ root: workspace }),
  shell: { backend, sandbox, policy: { allow: ['sleep', 'cat', 'echo', 'timeout'] } },
});
const call = tool.shellExec(command, undefined, background === 'true');
process.stdout.write(`running ${process.pid}\n`);
call.then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    // A background job keeps the host alive until it is killed.
    if (background === 'true') setInterval(() => undefined, 1000);
  },
  (error) => {
    process.stdout.write(`error ${error.message}\n`);
    process.exitCode = 1;
  },
);
