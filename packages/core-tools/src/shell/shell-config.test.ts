import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandEnvironment } from './shell-config.js';

describe(commandEnvironment, () => {
  it('gives commands a private HOME that is removed, with what they left in it, when the process exits', () => {
    const dist = path.resolve(__dirname, '../../dist/shell/shell-config.js');
    expect(fs.existsSync(dist), 'run the build first (npm test does)').toBe(true);
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        `
      const fs = require('node:fs');
      const { commandEnvironment } = require(${JSON.stringify(dist)});
      const env = commandEnvironment({});
      fs.writeFileSync(env.HOME + '/.leftover', 'x');
      process.stdout.write(env.HOME);
    `,
      ],
      { encoding: 'utf8' },
    );
    expect(child.status).toBe(0);
    expect(child.stdout).toMatch(/toolwright-shell-home-/);
    expect(fs.existsSync(child.stdout)).toBe(false);
  });

  it('never passes CDPATH, PWD or OLDPWD, which would make cd or pwd read otherwise than the judge', () => {
    const saved = { CDPATH: process.env.CDPATH, PWD: process.env.PWD, OLDPWD: process.env.OLDPWD };
    Object.assign(process.env, { CDPATH: '/', PWD: '/', OLDPWD: '/' });
    try {
      const env = commandEnvironment({ passEnv: ['CDPATH', 'PWD', 'OLDPWD'] });
      expect(env).not.toHaveProperty('CDPATH');
      expect(env).not.toHaveProperty('PWD');
      expect(env).not.toHaveProperty('OLDPWD');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('keeps one HOME for the life of the process', () => {
    expect(commandEnvironment({}).HOME).toBe(commandEnvironment({}).HOME);
  });
});
