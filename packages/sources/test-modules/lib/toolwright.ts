// The host functions of the Toolwright WebAssembly runner: AssemblyScript imports a function declared in
// a file from the module named after the file, here `toolwright`.

/** Reads a workspace file into memory from `alloc`: its (pointer << 32 | length), or a negative status. */
export declare function read_file(pathPointer: usize, pathLength: usize): i64;
/** Writes a workspace file: 0, or a negative status. */
export declare function write_file(pathPointer: usize, pathLength: usize, dataPointer: usize, dataLength: usize): i32;
/** A line for the call's progress stream. */
export declare function log(pointer: usize, length: usize): void;
/** GETs an http(s) URL into memory from `alloc`: the body's (pointer << 32 | length), or a negative status. */
export declare function http_get(urlPointer: usize, urlLength: usize): i64;
/** The HTTP status of the last `http_get`'s response (0 when it had none). */
export declare function http_status(): i32;
