import { describe, expect, it } from 'vitest';
import { implicitWorkspaceProblem } from './implicit-workspace.js';

describe(implicitWorkspaceProblem, () => {
  // Claude Desktop starts MCP servers in / and Claude Code ignores "cwd" (found by a review): the tools reached the whole disk.
  it.for(['/', '/home/someone', '/usr', '/usr/local/bin', '/etc', '/etc/nginx', '/proc/1', '/sys/fs', '/dev/shm', '/tmp', '/home', '/root'])(
    'refuses %s as a workspace nobody named',
    (folder) => {
      expect(implicitWorkspaceProblem(folder, '/home/someone')).toMatch(/^The workspace would be .*Pass --workspace with your project's absolute path/);
    },
  );

  it.for(['/home/someone/project', '/usr/src/app', '/tmp/build-1', '/srv/www/site', '/opt/tools/agent', '/var/www/html'])('accepts %s', (folder) => {
    expect(implicitWorkspaceProblem(folder, '/home/someone')).toBeUndefined();
  });

  it('names what the folder is', () => {
    expect(implicitWorkspaceProblem('/', '/home/someone')).toContain('the root of the file system');
    expect(implicitWorkspaceProblem('/home/someone/', '/home/someone')).toContain('your home folder');
    expect(implicitWorkspaceProblem('/usr', '/home/someone')).toContain('a system folder');
  });
});
