import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoreToolsEnvironment } from '../environment.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';

/** A real temporary workspace with the given files; `cleanup()` removes it. */
export function tempWorkspace(files: Record<string, string | Buffer> = {}): {
  root: string;
  env: CoreToolsEnvironment;
  write(rel: string, content: string | Buffer): void;
  read(rel: string): string;
  cleanup(): void;
} {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-core-')));
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  return {
    root,
    env: { workspace: new WorkspacePolicy({ root }), readHashes: new Map() },
    write,
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
