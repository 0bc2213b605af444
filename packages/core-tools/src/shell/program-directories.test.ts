import { describe, expect, it } from 'vitest';
import { programDirectories } from './sandbox-view.js';

describe(programDirectories, () => {
  // Found by a twelfth pass: `/opt/x/bin` on PATH made all of `/opt/x` readable, and a marker there was read.
  it("shows a toolchain's bin and the libraries beside it, not the rest of its prefix", () => {
    expect(programDirectories('/opt/x/bin:/usr/bin:/srv/tools:relative/bin:/bin')).toEqual([
      '/opt/x/bin',
      '/opt/x/lib',
      '/opt/x/lib64',
      '/opt/x/libexec',
      '/srv/tools',
    ]);
    expect(programDirectories('/opt/x/bin')).not.toContain('/opt/x');
  });
});
