import { renderedAs } from '@toolwright/registry';
import { tool, type Integer } from '@toolwright/tool';
import type { CoreToolsEnvironment } from '../environment.js';
import { readConfined, writeFileAtomic } from '../workspace/confined-file.js';
import { WorkspacePolicy } from '../workspace/workspace-policy.js';
import { CoreToolError } from '../core-tool-error.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import { renderName } from '../model-text/render-name.js';
import { useAsJudged } from '../as-judged.js';

/** What `vault_copyto` returns. */
export interface VaultCopyResult {
  name: string;
  /** Where the copy was written, as a scoped workspace path. */
  path: string;
  bytes: Integer;
}

/** A vault entry name: `/`-separated segments of letters, digits, `.`, `_`, `-`, each starting with a letter or digit. */
const ENTRY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$/;
const MAX_ENTRY_BYTES = 50 * 1024 * 1024;

/** Copies read-only reference files from a vault into the workspace. */
export class VaultTool {
  private readonly vault: WorkspacePolicy | undefined;

  constructor(private readonly env: CoreToolsEnvironment) {
    this.vault = env.vault ? new WorkspacePolicy({ root: env.vault.root, protectedPaths: [] }) : undefined;
  }

  /**
   * Copies a named entry from the vault (a read-only store of files configured for this workspace)
   * into the workspace: `shared` writes it to `shared:/<name>`, `tmp` to `tmp/<name>` in the private
   * workspace. The vault itself cannot be listed or changed through this tool, and nothing outside
   * the target area is written. Entries are at most 50 MiB.
   * @param name The entry's name in the vault, e.g. `templates/report.md`.
   * @param destination `shared` (default) or `tmp`.
   * @param overwrite Replace a file already at the destination.
   */
  @renderedAs(renderVaultCopy)
  @tool({
    tier: 'side-effecting',
    group: 'edit',
    sideEffects: ['fs-read', 'fs-write'],
    capabilities: ['vault.read', 'fs.write'],
    determinism: 'deterministic',
    timeout: '30s',
  })
  async vaultCopyto(/** @maxLength 1024 */ name: string, destination: 'shared' | 'tmp' = 'shared', overwrite: boolean = false): Promise<VaultCopyResult> {
    if (!this.vault) throw new CoreToolError('not_configured', 'No vault is configured for this workspace, so there is nothing to copy; go on without it.');
    if (!ENTRY_NAME.test(name)) {
      throw new CoreToolError(
        'invalid_name',
        `'${name}' is not a vault entry name: use segments of letters, digits, '.', '_' and '-' separated by '/', each starting with a letter or digit (no '..', no leading '/').`,
      );
    }
    const source = this.vault.resolve(name, { mustExist: true, kind: 'file' });
    const content = readConfined(
      source,
      MAX_ENTRY_BYTES,
      (size) => `The vault entry '${name}' is ${size} bytes; vault_copyto copies entries up to ${MAX_ENTRY_BYTES} bytes.`,
      { shown: name },
    );
    const target = destination === 'shared' ? `shared:/${name}` : `tmp/${name}`;
    const resolved = useAsJudged(this.env.workspace.resolve(target, { kind: 'file' }), undefined, target);
    if (resolved.exists && !overwrite) throw new WorkspaceError('already_exists', `'${target}' already exists; pass overwrite: true to replace it.`, target);
    writeFileAtomic(resolved, content);
    return { name, path: target, bytes: content.length };
  }
}

/** @example 'Copied the vault entry templates/report.md (2048 bytes) to shared:/templates/report.md.' */
export function renderVaultCopy(copy: VaultCopyResult): string {
  return `Copied the vault entry ${renderName(copy.name)} (${copy.bytes} bytes) to ${renderName(copy.path)}.`;
}
