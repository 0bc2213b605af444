// Types of build-modules.mjs, for the tests that import it (tsconfig.tests.json).

/** Source folders and where their modules go, relative to the repository's root. */
export declare const WASM_MODULE_FOLDERS: readonly { sources: string; out: string }[];

/** Compiles every stale module (every module with `force`) and resolves to the paths it wrote. */
export declare function buildWasmModules(options?: { force?: boolean; log?: (line: string) => void }): Promise<string[]>;
