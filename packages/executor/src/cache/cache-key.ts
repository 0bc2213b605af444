import type { ToolDeclaration } from '@toolwright/schema';
import type { WorkspaceRules } from '@toolwright/tool';
import { canonicalJson, sha256Hex, stringJson } from '../output/normalize-output.js';

/** What a `deterministic` tool may depend on besides its arguments (a `CallContext`'s fields). */
export interface CallScope {
  sessionId?: string | undefined;
  actorId?: string | undefined;
  capabilities?: readonly string[] | undefined;
  workspace?: string | undefined;
  workspaceRules?: WorkspaceRules | undefined;
}

/** The contract digest of each declaration: computed once per declaration object. */
const contracts = new WeakMap<ToolDeclaration, string>();

/**
 * What a `pure` tool's output is kept under: the sha-256 of the canonical JSON of the tool's name, its
 * `version`, the digest of its parameter and result schemas (a changed signature is a new contract) and
 * the arguments (`argsJson`, already canonical).
 * @example cacheKey(add, '{"a":2,"b":3}') -> sha256('{"args":{"a":2,"b":3},"contract":"…","tool":"add","version":null}')
 */
export function cacheKey(declaration: ToolDeclaration, argsJson: string): string {
  return sha256Hex(keyText(declaration, argsJson));
}

/**
 * What a `deterministic` tool's output is kept under in memory: the pure key's fields with the caller's
 * session, actor, capabilities, workspace and workspace rules, on which such a tool may depend.
 */
export function sessionCacheKey(declaration: ToolDeclaration, argsJson: string, context: CallScope): string {
  return sha256Hex(keyText(declaration, argsJson, context));
}

/** Canonical JSON (keys sorted) spliced from text already canonical: the pure key's fields, and the scope's when given. */
function keyText(declaration: ToolDeclaration, argsJson: string, context?: CallScope): string {
  const text = (value: string | undefined) => (value === undefined ? 'null' : stringJson(value));
  const json = (value: unknown, what: string) => (value === undefined ? 'null' : canonicalJson(value, what));
  const fields = [
    `"args":${argsJson}`,
    `"contract":"${contractOf(declaration)}"`,
    `"tool":${stringJson(declaration.name)}`,
    `"version":${text(declaration.metadata.version)}`,
  ];
  if (context)
    fields.push(
      `"actor":${text(context.actorId)}`,
      `"capabilities":${json(context.capabilities && [...new Set(context.capabilities)].sort(), 'the capabilities')}`,
      `"rules":${json(context.workspaceRules, 'the workspace rules')}`,
      `"session":${text(context.sessionId)}`,
      `"workspace":${text(context.workspace)}`,
    );
  // Each field starts with its quoted, distinct name: sorting the texts sorts the keys.
  return `{${fields.sort().join(',')}}`;
}

function contractOf(declaration: ToolDeclaration): string {
  let digest = contracts.get(declaration);
  if (digest === undefined) {
    digest = sha256Hex(canonicalJson({ parameters: declaration.parameters, returns: declaration.returns ?? null }, 'the declaration'));
    contracts.set(declaration, digest);
  }
  return digest;
}
