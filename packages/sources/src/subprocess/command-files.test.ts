import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandFiles, readerRoot } from './command-files.js';
import { folder } from './test-support/python-tool.js';

describe(commandFiles, () => {
  it('lists the program and the files its arguments name, canonical, leaving out options, code and the system’s files', () => {
    const dir = folder('tw-command-files-');
    fs.mkdirSync(path.join(dir, 'tools'));
    fs.writeFileSync(path.join(dir, 'tools', 'tool.py'), '');
    fs.symlinkSync(path.join(dir, 'tools', 'tool.py'), path.join(dir, 'link.py'));
    fs.mkdirSync(path.join(dir, 'src'));
    const files = commandFiles(
      '/usr/bin/env',
      ['python3', '-u', '../tools/tool.py', '../link.py', 'print(1)', '/etc/hostname', '../src', 'missing.py'],
      path.join(dir, 'src'),
    );
    expect(files).toEqual([path.join(dir, 'tools', 'tool.py')]);
  });
});

describe(readerRoot, () => {
  const home = os.homedir();
  it.for([
    ['the tool’s folder when the files lie in it', '/opt/t', ['/opt/t/tool.py'], '/opt/t'],
    ['the project holding the tool’s folder and the script', '/opt/p/src', ['/opt/p/tools/x.py'], '/opt/p'],
    ['a project in a home directory', `${home}/p/src`, [`${home}/p/tools/x.py`], `${home}/p`],
    ['the tool’s folder, not the home directory that holds both', `${home}/src`, [`${home}/tools/x.py`], `${home}/src`],
    ['the tool’s folder, not /', '/opt/t', ['/srv/x.py'], '/opt/t'],
  ] as const)('is %s', ([, toolDir, files, root]) => {
    expect(readerRoot(toolDir, files)).toBe(root);
  });
});
