import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolRegistry } from '@toolwright/registry';
import { ToolExecutor } from '../tool-executor.js';
import type { PathResolver } from '../ports.js';
import { declaration, defineTool } from '../test-support/declare-tool.js';
import { failed } from '../test-support/call-results.js';
import { explainDecision } from '../gate/explain.js';
import { lexicalSpelling, normalisePathPattern, pathSubjectMatches } from './path-subject.js';
import { loadPolicy } from './policy.js';

const ROOT = '/srv/ws';

/** Canonical paths a rule may name, and the names that make up random ones. */
const CANONICAL = ['.env', 'secrets/k', 'secrets/deep/k', 'src/a.ts', 'config/.env', 'shared:/notes/x.md'];

/**
 * Spellings of a canonical path that a workspace resolves to it: scope prefixes, absolute roots, `./`,
 * doubled slashes, `x/..` detours, trailing `/.` on directories. Every one must meet the same rules.
 */
const spelling = (canonical: string): fc.Arbitrary<string> => {
  const scoped = /^(shared|public):\//.exec(canonical);
  const rest = scoped ? canonical.slice(scoped[0].length) : canonical;
  const segments = rest.split('/');
  const detour = fc.constantFrom('', 'x/../', 'sub/deeper/../../', './', './/', 'a/./../');
  return fc
    .record({
      prefix: scoped
        ? fc.constantFrom(scoped[0], `${scoped[0]}/`, `${scoped[0]}./`)
        : fc.constantFrom('', './', './/', 'private:/', 'private://', 'private:/./', `${ROOT}/`, `${ROOT}//`),
      detours: fc.array(detour, { minLength: segments.length, maxLength: segments.length }),
      suffix: fc.constantFrom('', '/', '//', '/.'),
    })
    .map(({ prefix, detours, suffix }) => prefix + segments.map((segment, i) => `${detours[i]}${segment}`).join('/') + suffix);
};

/** A workspace-like resolver: absolute paths under ROOT become relative, the rest is the lexical form. */
const resolver: PathResolver = (_argument, value) => {
  const relative = value.startsWith(`${ROOT}/`) ? value.slice(ROOT.length + 1) : value;
  const spelled = lexicalSpelling(relative);
  return spelled === undefined ? undefined : [spelled];
};

/** Every spelling of `text` with each letter in either case. */
const caseVariants = (text: string): string[] => [
  ...new Set([...text].reduce((spelled, c) => spelled.flatMap((before) => [before + c, before + c.toUpperCase()]), [''])),
];

describe(pathSubjectMatches, () => {
  it('a deny or ask rule naming a path matches every spelling of it (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CANONICAL).chain((canonical) => fc.tuple(fc.constant(canonical), spelling(canonical))),
        fc.constantFrom('deny', 'ask') as fc.Arbitrary<'deny' | 'ask'>,
        ([canonical, spelled], effect) => {
          const dir = canonical.includes('/') ? `${canonical.slice(0, canonical.lastIndexOf('/'))}/**` : canonical;
          for (const pattern of [canonical, dir, `./${canonical}`, canonical.startsWith('shared:/') ? canonical : `private:/${canonical}`]) {
            expect(pathSubjectMatches(pattern, { name: 'path', value: spelled }, effect, resolver)).toBe(true);
            // Without a host only the lexical form is known: an absolute path needs the host to place it.
            if (!spelled.startsWith('/')) expect(pathSubjectMatches(pattern, { name: 'path', value: spelled }, effect)).toBe(true);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('a deny rule ignores case, as a case-insensitive file system would (property)', () => {
    // Every variant: 8 of `.env`, 256 of `secrets/k`.
    for (const canonical of ['.env', 'secrets/k']) {
      for (const variant of caseVariants(canonical))
        expect(pathSubjectMatches(canonical, { name: 'path', value: variant }, 'deny', resolver), variant).toBe(true);
    }
  });

  it('an allow rule covers a spelling only when every path the host resolves it to is covered', () => {
    const link: PathResolver = () => ['src/link', '.env'];
    expect(pathSubjectMatches('src/**', { name: 'path', value: 'src/link' }, 'allow', link)).toBe(false);
    expect(pathSubjectMatches('.env', { name: 'path', value: 'src/link' }, 'deny', link)).toBe(true);
    expect(pathSubjectMatches('src/**', { name: 'path', value: `${ROOT}/src/a.ts` }, 'allow', resolver)).toBe(true);
    expect(pathSubjectMatches('src/**', { name: 'path', value: 'SRC/a.ts' }, 'allow', resolver)).toBe(false);
  });

  it('an allow rule never covers a path that climbs out of the root, or that neither the host nor the lexical form places', () => {
    for (const value of ['../x', 'src/../../x', 'private:/../x', '..']) {
      for (const pattern of ['**', '*', '../**', 'x']) {
        expect(pathSubjectMatches(pattern, { name: 'path', value }, 'allow'), `${pattern} ${value}`).toBe(false);
        expect(
          pathSubjectMatches(pattern, { name: 'path', value }, 'allow', () => undefined),
          `${pattern} ${value}`,
        ).toBe(false);
      }
    }
  });

  it('normalises rule patterns as it normalises paths', () => {
    expect(normalisePathPattern('private:/./.env')).toBe('.env');
    expect(normalisePathPattern('.//./secrets/**')).toBe('secrets/**');
    expect(normalisePathPattern('shared:/x')).toBe('shared:/x');
    expect(lexicalSpelling('private:/sub/../.env')).toBe('.env');
    expect(lexicalSpelling('shared://a/./b')).toBe('shared:/a/b');
  });
});

describe('policy path rules with a tool host resolver', () => {
  const read = declaration('file_read', { path: { type: 'string' } });
  const write = declaration('file_write', { path: { type: 'string' }, content: { type: 'string' } }, { metadata: { tier: 'side-effecting' } });
  const registry = new ToolRegistry();
  registry.register(defineTool(async () => 'ran', read));
  registry.register(defineTool(async () => 'ran', write));
  const policy = loadPolicy(
    { rules: [{ deny: 'file_read(.env)' }, { deny: 'file_write(secrets/**)' }, { allow: 'file_*' }] },
    (name) => registry.get(name)?.declaration,
  );
  let resolved = 0;
  const counting: PathResolver = (argument, value, args) => (resolved++, resolver(argument, value, args));
  const executor = new ToolExecutor({ registry, policy, pathResolvers: { file_read: counting, file_write: counting }, doomLoop: false });

  it('the executor, previewGate and explain deny every spelling of a denied path (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(['file_read', '.env'] as const, ['file_write', 'secrets/k'] as const, ['file_write', 'secrets/deep/k'] as const)
          .chain(([tool, canonical]) => fc.tuple(fc.constant(tool), spelling(canonical))),
        async ([tool, spelled]) => {
          const args = tool === 'file_read' ? { path: spelled } : { path: spelled, content: 'x' };
          const result = await executor.executeToolCall({ id: 'c', name: tool, arguments: JSON.stringify(args) });
          expect(failed(result).error.code).toBe('policy_denied');
          expect(executor.previewGate(tool, args).decision).toBe('deny');
          expect(executor.explainCall(tool, args).decision).toBe('deny');
          expect(explainDecision(policy, tool, args, registry.get(tool)!.declaration, undefined, counting).decision).toBe('deny');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('asks the host once per argument of a call, and only about path parameters', async () => {
    resolved = 0;
    await executor.executeToolCall({ id: 'c', name: 'file_write', arguments: JSON.stringify({ path: 'src/a.ts', content: '.env' }) });
    expect(resolved).toBe(1);
  });

  it('shows the resolved spelling in the explanation', () => {
    const explanation = executor.explainCall('file_read', { path: `${ROOT}/.env` });
    expect(explanation.rules[0]!.why).toContain('(resolved as ".env")');
  });

  it('an always-approval scoped to a path pattern covers only calls whose resolved paths it covers (property)', async () => {
    const link: PathResolver = (argument, value) => (value.startsWith('src/link') ? ['src/link', 'lib/x'] : resolver(argument, value, {}));
    let asked = 0;
    const approving = new ToolExecutor({
      registry,
      pathResolvers: { file_write: link },
      riskMode: 'autorun_none',
      doomLoop: false,
      approve: async () => (asked++, { kind: 'always', pattern: 'file_write(src/**)' }),
    });
    await approving.executeToolCall({ id: 'first', name: 'file_write', arguments: JSON.stringify({ path: 'src/a.ts', content: 'x' }) });
    for (const value of ['src/b.ts', './src/c.ts', `${ROOT}/src/d.ts`, 'private:/src/e.ts', 'src/link', 'lib/x', '../src/x', 'src/../lib/x']) {
      asked = 0;
      await approving.executeToolCall({ id: 'c', name: 'file_write', arguments: JSON.stringify({ path: value, content: 'x' }) });
      const covered = link('path', value, {})?.every((p) => p.startsWith('src/')) ?? false;
      expect(asked, value).toBe(covered ? 0 : 1);
    }
  });
});
