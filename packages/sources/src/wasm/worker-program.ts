import { RUNNER_EXPORTS } from './binary/prepare-module.js';
import { HostStatus } from './host-status.js';

/**
 * The program each worker thread runs: per job, a fresh instance of the (already compiled) module, the
 * host functions it may import, and one call of its tool export. CommonJS evaluated from text, not
 * loaded from a file, so the same code runs from the TypeScript source under vitest and from the build.
 *
 * A host function that touches files or the network asks the main thread, which holds the workspace
 * policy and the guarded request: it posts the request on its own port and blocks on a shared flag until
 * the answer is there, however long the main thread takes (WebAssembly calls its imports synchronously).
 * Nothing the module does reaches the file system or the network any other way.
 */
export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const { hostPort } = workerData;
const flag = new Int32Array(workerData.flag);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
const utf16 = new TextDecoder('utf-16le');
const encoder = new TextEncoder();
const EXPORTS = ${JSON.stringify(RUNNER_EXPORTS)};
const INVALID = ${HostStatus.invalid};
const MAX_LOG_BYTES = 64 * 1024;

class Aborted extends Error {}

function hostCall(request) {
  Atomics.store(flag, 0, 0);
  hostPort.postMessage(request);
  Atomics.wait(flag, 0, 0);
  const received = receiveMessageOnPort(hostPort);
  if (!received) throw new Error('the host did not answer a host request');
  return received.message;
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function run(job) {
  const state = { memory: undefined, alloc: undefined, logged: 0, fuel: undefined, grow: undefined, httpStatus: 0 };
  const bytesAt = (pointer, length) => {
    const start = pointer >>> 0;
    const size = length >>> 0;
    const buffer = state.memory.buffer;
    return start + size <= buffer.byteLength ? new Uint8Array(buffer, start, size) : undefined;
  };
  const textAt = (pointer, length) => {
    const bytes = bytesAt(pointer, length);
    try {
      return bytes && utf8.decode(bytes);
    } catch {
      return undefined;
    }
  };
  // An AssemblyScript string: UTF-16LE, its length in bytes in the 4 bytes before it.
  const stringAt = (pointer) => {
    if (!pointer || pointer < 4) return '';
    const size = bytesAt(pointer - 4, 4);
    if (!size) return '';
    const text = bytesAt(pointer, Math.min(new DataView(size.buffer, size.byteOffset, 4).getUint32(0, true), 4096));
    return text ? utf16.decode(text) : '';
  };
  const log = (text) => {
    if (state.logged >= MAX_LOG_BYTES) return;
    state.logged += text.length;
    parentPort.postMessage({ type: 'log', text: text.slice(0, MAX_LOG_BYTES) });
  };
  // The reply's data copied into memory from the module's alloc: its (pointer << 32 | length), or the negative status.
  const packedData = (reply) => {
    if (reply.code !== 0) return BigInt(reply.code);
    const pointer = state.alloc(reply.data.length) >>> 0;
    const target = bytesAt(pointer, reply.data.length);
    if (!target) throw new Error('alloc(' + reply.data.length + ') returned ' + pointer + ', outside the module memory');
    target.set(reply.data);
    return (BigInt(pointer) << 32n) | BigInt(reply.data.length);
  };
  const host = {
    toolwright: {
      read_file(pathPointer, pathLength) {
        const path = textAt(pathPointer, pathLength);
        if (path === undefined) return BigInt(INVALID);
        return packedData(hostCall({ op: 'read', path }));
      },
      http_get(urlPointer, urlLength) {
        state.httpStatus = 0;
        const url = textAt(urlPointer, urlLength);
        if (url === undefined) return BigInt(INVALID);
        const reply = hostCall({ op: 'get', url });
        state.httpStatus = reply.status || 0;
        return packedData(reply);
      },
      http_status() {
        return state.httpStatus;
      },
      write_file(pathPointer, pathLength, dataPointer, dataLength) {
        const path = textAt(pathPointer, pathLength);
        const data = bytesAt(dataPointer, dataLength);
        if (path === undefined || !data) return INVALID;
        return hostCall({ op: 'write', path, data: data.slice() }).code;
      },
      log(pointer, length) {
        // What is left of the log is checked before decoding: a module may name its whole memory again and again, and
        // decoding is work no fuel counts.
        const left = MAX_LOG_BYTES - state.logged;
        if (left <= 0) return;
        const bytes = bytesAt(pointer, length);
        if (bytes) log(lossy.decode(bytes.subarray(0, left)));
      },
    },
    env: {
      abort(message, file, line, column) {
        throw new Aborted(stringAt(message) + ' (' + stringAt(file) + ':' + line + ':' + column + ')');
      },
      trace(message, count, ...values) {
        log('trace: ' + stringAt(message) + (count > 0 ? ' ' + values.slice(0, count).join(', ') : ''));
      },
      seed() {
        return Date.now();
      },
    },
  };
  const meters = () => ({
    fuelLeft: state.fuel && state.fuel.value,
    growFailed: state.grow !== undefined && state.grow.value === -1,
    memoryBytes: state.memory ? state.memory.buffer.byteLength : 0,
  });
  const failure = (kind, message) => ({ type: 'done', ok: false, kind, message, ...meters() });

  const imports = {};
  for (const { module, name, kind } of WebAssembly.Module.imports(job.module)) {
    let value;
    if (kind === 'memory') {
      const limits = job.memories.find((memory) => memory.module === module && memory.name === name);
      if (limits) value = state.memory = new WebAssembly.Memory({ initial: limits.initial, maximum: limits.maximum, shared: limits.shared });
    } else if (kind === 'function' && Object.hasOwn(host, module) && Object.hasOwn(host[module], name)) {
      value = host[module][name];
    }
    if (value === undefined) {
      return failure('link', 'the module imports ' + kind + " '" + module + '.' + name + "', which the runner does not provide (it provides toolwright.read_file, toolwright.write_file, toolwright.http_get, toolwright.http_status, toolwright.log, env.abort, env.trace and env.seed)");
    }
    if (!Object.hasOwn(imports, module)) imports[module] = {};
    imports[module][name] = value;
  }
  let exports;
  try {
    exports = new WebAssembly.Instance(job.module, imports).exports;
  } catch (error) {
    return failure('link', 'the module cannot be instantiated: ' + messageOf(error));
  }
  state.fuel = exports[EXPORTS.fuel];
  state.grow = exports[EXPORTS.grow];
  if (exports.memory instanceof WebAssembly.Memory) state.memory = exports.memory;
  if (!state.memory) return failure('export', "the module has no memory: export it as 'memory'");
  const functions = Object.keys(exports).filter((name) => typeof exports[name] === 'function' && name !== EXPORTS.start).sort();
  const tool = Object.hasOwn(exports, job.exportName) ? exports[job.exportName] : undefined;
  if (typeof tool !== 'function') return failure('export', "the module exports no function '" + job.exportName + "' (its functions: " + (functions.join(', ') || 'none') + ')');
  if (typeof exports.alloc !== 'function') return failure('export', "the module exports no function 'alloc' (size: i32) -> i32, which the runner needs to pass it the arguments");
  state.alloc = exports.alloc;
  state.fuel.value = job.fuel;
  try {
    if (typeof exports[EXPORTS.start] === 'function') exports[EXPORTS.start]();
    const input = encoder.encode(job.input);
    const pointer = state.alloc(input.length) >>> 0;
    const target = bytesAt(pointer, input.length);
    if (!target) return failure('result', 'alloc(' + input.length + ') returned ' + pointer + ', outside the module memory');
    target.set(input);
    const packed = tool(pointer, input.length);
    if (typeof packed !== 'bigint') return failure('result', "'" + job.exportName + "' returned " + typeof packed + ', not an i64 (the result pointer << 32 | its length)');
    const resultPointer = Number(BigInt.asUintN(64, packed) >> 32n);
    const length = Number(packed & 0xffffffffn);
    if (length > job.maxOutputBytes) return { type: 'done', ok: false, kind: 'output', length, ...meters() };
    const bytes = bytesAt(resultPointer, length);
    if (!bytes) return failure('result', 'the result (' + length + ' bytes at ' + resultPointer + ') lies outside the module memory');
    return { type: 'done', ok: true, bytes: bytes.slice(), ...meters() };
  } catch (error) {
    return failure(error instanceof Aborted ? 'abort' : 'trap', messageOf(error));
  }
}

parentPort.on('message', (job) => {
  const reply = run(job);
  parentPort.postMessage(reply, reply.bytes ? [reply.bytes.buffer] : []);
});
`;
