import picomatch from 'picomatch';

/** Paths hidden from every tool: glob patterns relative to the private root, as a policy's deny rules match paths. */
export interface DeniedPaths {
  /** The patterns, normalised (`./`, leading `/` and trailing `/` dropped); empty patterns left out. */
  readonly patterns: readonly string[];
  /** The pattern that hides `relative` itself or one of its parents, or undefined. */
  deniedBy(relative: string): string | undefined;
  /** The pattern that hides exactly `relative` (its parents not looked at), for walks that never enter a hidden directory. */
  hides(relative: string): string | undefined;
  /** Whether some path inside the directory `relative` may be hidden: a search for hidden paths enters only those. */
  mayHideBelow(relative: string): boolean;
}

/**
 * Matches `/`-separated paths relative to the private root against deny patterns with picomatch,
 * as the executor matches a deny rule's path pattern: `*` within a segment, `**` across segments,
 * dotfiles included, case ignored (a case-insensitive file system opens `SECRETS/k` as `secrets/k`).
 * A path is denied when it or any parent matches, so `secrets`, `secrets/**` and `secrets/*` all
 * hide what the directory holds; `**` hides everything below the root (never the root itself).
 * @example deniedPathMatcher(['secrets/**']).deniedBy('secrets/deep/k') // 'secrets/**'
 */
export function deniedPathMatcher(patterns: readonly string[]): DeniedPaths {
  const normalised = [...new Set(patterns.map(normalisePattern).filter((p) => p !== ''))];
  const compiled = normalised.map((pattern) => ({
    pattern,
    matches: picomatch(pattern, { dot: true, nocase: true }),
    base: literalBase(pattern),
  }));
  const hides = (relative: string): string | undefined => {
    if (relative === '' || relative === '.') return undefined;
    return compiled.find(({ matches }) => matches(relative))?.pattern;
  };
  return {
    patterns: normalised,
    hides,
    deniedBy: (relative) => {
      const segments = relative.split('/');
      for (let end = 1; end <= segments.length; end++) {
        const found = hides(segments.slice(0, end).join('/'));
        if (found) return found;
      }
      return undefined;
    },
    mayHideBelow: (relative) => {
      const dir = relative === '.' ? '' : relative.toLowerCase();
      return compiled.some(({ base }) => base === '' || dir === '' || within(base, dir) || within(dir, base));
    },
  };
}

/** `./secrets/` → `secrets`: the forms a rule may spell a path in, reduced to the one paths are compared in. */
function normalisePattern(pattern: string): string {
  let rest = pattern;
  for (let previous = ''; previous !== rest;) {
    previous = rest;
    rest = rest
      .replace(/^\.\/+/, '')
      .replace(/^\/+/, '')
      .replace(/\/+$/, '');
  }
  return rest === '.' ? '' : rest;
}

/**
 * The literal directory a pattern starts with, lower-cased: only paths there or above it may match.
 * '' (anywhere) when it starts with a wildcard, is negated (`!x` matches all but x) or escapes a character.
 */
function literalBase(pattern: string): string {
  const { base, negated } = picomatch.scan(pattern);
  return negated || base.includes('\\') ? '' : base.toLowerCase();
}

/** Whether `inner` is `outer` or lies below it, by whole segments. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}
