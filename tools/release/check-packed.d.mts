// Types of check-packed.mjs, for the tests that import it (tsconfig.tests.json).
import type { PackedPackage } from './pack-packages.mjs';

/** Returns every problem found in the packed packages, as `name: what is wrong`; none when all is well. */
export declare function checkPacked(packed: readonly PackedPackage[]): string[];
