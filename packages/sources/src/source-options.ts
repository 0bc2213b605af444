import type { ToolOptions } from '@toolwright/schema';

/**
 * Options of a WebAssembly tool: the tool's own options (`tier`, `timeout`, `maxMemory`, ...) and the module's.
 * The memory cap is the tool's `maxMemory` (default 64 MB); the time the tool's `timeout`.
 */
export interface WasmToolOptions extends ToolOptions {
  /** The module's exported function that runs the tool (default: `call`). */
  export?: string;
  /**
   * Compute budget: how many metered steps (each function entry and each loop iteration counts one) the call may take
   * before it is stopped with `resource_exhausted` (`fuel`). Default 1,000,000,000.
   */
  fuel?: number;
  /** Largest result the module may return, in bytes (default 4 MiB). */
  maxOutputBytes?: number;
  /**
   * Internal addresses `toolwright.http_get` may reach (CIDR ranges or addresses, e.g. `127.0.0.1` for a local
   * service, which may then use any port); by default only public addresses are reached, as `web_fetch` does.
   */
  allowAddresses?: string[];
  /** Ports besides 80 and 443 a public host reached by `toolwright.http_get` may use. */
  allowPorts?: number[];
}

/**
 * Options of a subprocess tool: the tool's own options and the process's. Memory is the tool's `maxMemory`
 * (default 512 MB), the time its `timeout`.
 */
export interface SubprocessToolOptions extends ToolOptions {
  /** The program's working directory (default: the directory of the file that declares the tool). */
  cwd?: string;
  /** Variables added to the program's minimal environment (`PATH`, `HOME`, `LANG`). */
  env?: Record<string, string>;
  /** CPU seconds the program may use (default 60). */
  cpuSeconds?: number;
  /** Processes and threads it may run at once (default 32). */
  processes?: number;
  /** Largest file it may write, in bytes (default 64 MiB). */
  fileSizeBytes?: number;
  /** Largest result it may print on stdout, in bytes (default 4 MiB). */
  maxOutputBytes?: number;
  /**
   * Whether the program may use the network (default false: inside the sandbox it has none). Where the call's
   * capabilities are granted explicitly it must also hold `net.connect`, as the shell's commands must.
   */
  network?: boolean;
  /**
   * Where the program runs: `auto` (the default) inside the kernel sandbox (bubblewrap) where this machine can make
   * one, else on the host with the per-process limits only; `required` refuses to run it without the sandbox
   * (`sandbox_unavailable`); `off` never uses it.
   */
  sandbox?: 'auto' | 'required' | 'off';
}

/** Options of an HTTP tool: the tool's own options and the request's. The time is the tool's `timeout`. */
export interface HttpToolOptions extends ToolOptions {
  /**
   * Headers sent with every request (e.g. an API key read from the environment), but not to another origin a
   * redirect leads to. `content-type` and `accept` are the protocol's (`application/json`).
   */
  headers?: Record<string, string>;
  /**
   * Internal addresses this endpoint may resolve to (CIDR ranges or addresses, e.g. `127.0.0.1` for a local
   * service); by default only public addresses are reached, as `web_fetch` does.
   */
  allowAddresses?: string[];
  /** Ports besides 80 and 443 a public host may use (hosts in `allowAddresses` may use any). */
  allowPorts?: number[];
  /** Largest response body read, in bytes (default 4 MiB). */
  maxResponseBytes?: number;
}
