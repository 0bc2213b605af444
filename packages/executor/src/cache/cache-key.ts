import type { ToolDeclaration } from '@toolwright/schema';
import { canonicalJson, sha256Hex, stringJson } from '../output/normalize-output.js';

/** What a `deterministic` tool may depend on besides its arguments (a `CallContext`'s fields). */
export interface CallScope {
  sessionId?: string | undefined;
  workspace?: string | undefined;
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
 * session and workspace, on which such a tool may depend.
 */
export function sessionCacheKey(declaration: ToolDeclaration, argsJson: string, context: CallScope): string {
  return sha256Hex(keyText(declaration, argsJson, context));
}

/** Canonical JSON (keys sorted: args, contract, session, tool, version, workspace) spliced from text already canonical. */
function keyText(declaration: ToolDeclaration, argsJson: string, context?: CallScope): string {
  const text = (value: string | undefined) => (value === undefined ? 'null' : stringJson(value));
  const session = context ? `,"session":${text(context.sessionId)}` : '';
  const workspace = context ? `,"workspace":${text(context.workspace)}` : '';
  return `{"args":${argsJson},"contract":"${contractOf(declaration)}"${session},"tool":${stringJson(declaration.name)},"version":${text(
    declaration.metadata.version,
  )}${workspace}}`;
}

function contractOf(declaration: ToolDeclaration): string {
  let digest = contracts.get(declaration);
  if (digest === undefined) {
    digest = sha256Hex(canonicalJson({ parameters: declaration.parameters, returns: declaration.returns ?? null }, 'the declaration'));
    contracts.set(declaration, digest);
  }
  return digest;
}
