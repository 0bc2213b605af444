import path from 'node:path';
import {
  DEFAULT_LIMITS,
  decideSandbox,
  makeCommandGroup,
  probeSandbox,
  sandboxedCommand,
  sandboxLimitsPrelude,
  systemProgram,
  type DirectoryIdentity,
  type Launch,
  type ResourceLimits,
  type SandboxDecision,
  type SandboxMode,
  type SandboxPolicy,
  type SandboxSupport,
} from '@toolwright/sandbox';
import { admit } from '../shell/sandbox-admission.js';
import { definedOnly, identityIfPresent } from '../shell/sandbox-view.js';
import { hiddenPathsUnder } from '../workspace/tree-scan.js';
import type { WorkspacePolicy } from '../workspace/workspace-policy.js';

/** Entries the search for paths deny rules hide may look at (as for the shell's sandbox); past it, no sandbox is made. */
const HIDDEN_SCAN_ENTRIES = 200_000;

/** Largest `.gitignore` the built-in engine honours (its walker's cap): ripgrep runs only where every one is within it. */
const MAX_GITIGNORE_BYTES = 1 << 20;

/** The exit status of the script when a `.gitignore` is not a plain file within the cap: the built-in engine searches instead. */
export const GITIGNORE_REFUSED = 86;

/** The memory a search's sandbox may use at most (less where the shell's limits say so). */
const SEARCH_MEMORY_BYTES = 1024 ** 3;

/**
 * What a sandboxed program's exit status is raised by, so that bubblewrap's own failures (1), the limits'
 * (125, 126) and a refusal (`GITIGNORE_REFUSED`) never read as one of the program's.
 */
export const STATUS_OFFSET = 10;

/** One program started in a reader's sandbox, and what to let go of once it has ended. */
export interface SandboxedRun {
  launch: Launch;
  release: () => void;
}

/**
 * The kernel sandbox `file_search` runs ripgrep in (`@toolwright/sandbox`, as the shell's commands, with a
 * reader's view: `SandboxPolicy.reader`): the workspace read-only, every path a deny rule hides emptied, no
 * network, no `/dev` or `/proc`, the shell's resource limits (its control group where the host makes them). So
 * what ripgrep opens by name — a `.gitignore`, a searched file swapped for a link — reaches nothing outside the
 * workspace and the system's files, and cannot wait on a device or its own output. Before ripgrep starts, `find`
 * (which opens no file) looks for a `.gitignore` that is not a plain file or is over the built-in engine's cap —
 * ripgrep would read a FIFO's writer or a link's target whole, where the built-in walker skips it: then the
 * built-in engine searches instead, with the same results. The mode is the shell's (`shell.sandbox`): `off`,
 * or a machine where the sandbox cannot be made, gives no sandbox, and the built-in engine searches.
 */
export class SearchSandbox {
  private decision: Promise<SandboxDecision> | undefined;
  /** The directory the workspace was when the tools were set up: another in its place is never mounted (see `workspaceProblem`). */
  private identity: DirectoryIdentity | undefined;

  constructor(
    private readonly workspace: WorkspacePolicy,
    private readonly mode: SandboxMode,
    private readonly limits: Partial<ResourceLimits> = {},
    private readonly probe: () => Promise<SandboxSupport> = () => probeSandbox(),
  ) {
    this.identity = identityIfPresent(workspace.rootOf('private'));
  }

  /**
   * The launch of `program` with `args` in a reader's sandbox starting in `cwd` (a directory of the workspace),
   * or undefined where none can be made (the caller searches with the built-in engine). Its exit status is the
   * program's plus `STATUS_OFFSET`, or `GITIGNORE_REFUSED`.
   */
  async start(program: string, args: readonly string[], cwd: string): Promise<SandboxedRun | undefined> {
    if (this.mode === 'off') return undefined;
    const decision = await (this.decision ??= this.probe().then((support) => {
      if (!support.available && support.transient) this.decision = undefined;
      return decideSandbox(this.mode, support);
    }));
    const find = systemProgram('find');
    if (decision.run !== 'sandboxed' || find === undefined) return undefined;
    const root = this.workspace.rootOf('private');
    this.identity ??= identityIfPresent(root);
    if (this.identity === undefined) return undefined;
    const hidden = hiddenPathsUnder(this.workspace, root, HIDDEN_SCAN_ENTRIES);
    if (!hidden.complete) return undefined;
    const policy: SandboxPolicy = {
      workspace: root,
      workspaceIdentity: this.identity,
      readOnly: [],
      hidden: hidden.paths.map((entry) => path.join(root, entry.path)),
      readable: [],
      network: false,
      home: '/tmp/home',
      cwd,
      // A search needs far less than a command; a planted ignore file a search is made to read stays small.
      limits: {
        ...DEFAULT_LIMITS,
        ...definedOnly(this.limits),
        memoryBytes: Math.min(this.limits.memoryBytes ?? DEFAULT_LIMITS.memoryBytes, SEARCH_MEMORY_BYTES),
      },
      reader: true,
    };
    // Counted with the shell's commands: past what the machine holds, the built-in engine searches instead.
    let admitted: () => void;
    try {
      admitted = admit(policy.limits.memoryBytes);
    } catch {
      return undefined;
    }
    const script = `${sandboxLimitsPrelude(decision.support, policy)}${refuseOddGitignores(find)}"$0" "$@"; exit $(($? + ${STATUS_OFFSET}))`;
    let group: ReturnType<typeof makeCommandGroup>;
    try {
      group = makeCommandGroup(policy.limits);
      const launch = sandboxedCommand(decision.support, policy, ['/bin/bash', '--noprofile', '--norc', '-f', '-c', script, program, ...args], group);
      let released = false;
      const release = () => {
        if (!released) {
          group?.remove();
          admitted();
        }
        released = true;
      };
      return { launch, release };
    } catch {
      group?.remove(); // the workspace is gone or replaced, or the plan is too large: the built-in engine says what it finds
      admitted();
      return undefined;
    }
  }
}

/** Bash that ends with `GITIGNORE_REFUSED` when some `.gitignore` below (outside `.git` and `.toolwright`) is not a plain file within the cap. */
function refuseOddGitignores(find: string): string {
  const odd = `\\( -name .git -o -name .toolwright \\) -prune -o -name .gitignore \\( ! -type f -o -size +${MAX_GITIGNORE_BYTES}c \\) -print -quit`;
  return `[ -z "$(${find} . ${odd})" ] || exit ${GITIGNORE_REFUSED}; `;
}
