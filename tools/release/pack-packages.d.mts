// Types of pack-packages.mjs, for the tests that import it (tsconfig.tests.json).

/** The repository's root folder. */
export declare const REPO: string;

/** One tarball `npm pack` made, as `packPackages` reports it. */
export interface PackedPackage {
  name: string;
  version: string;
  /** The package's folder under packages/. */
  dir: string;
  /** The tarball's path. */
  tarball: string;
  /** The paths of the files in the tarball, relative to the package, sorted. */
  files: string[];
  /** The package's package.json, parsed. */
  manifest: Record<string, unknown>;
}

/** Packs every package into `destination` (created if missing) and returns one entry per tarball. */
export declare function packPackages(destination: string): PackedPackage[];

/** The environment without the `npm_*` variables an enclosing `npm run` sets, with `extra` added. */
export declare function cleanNpmEnv(extra?: Readonly<Record<string, string>>): NodeJS.ProcessEnv;
