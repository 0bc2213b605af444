// The JSON glue of the test modules: the runner's `alloc`, the arguments in, the result out, and a
// minimal reader of the flat JSON objects the tests pass (AssemblyScript has no JSON.parse).
import { log as hostLog } from './toolwright';

/** The runner's `alloc`: memory for the arguments and for files read (the stub runtime never frees). */
export function alloc(size: i32): usize {
  return heap.alloc(<usize>size);
}

/** The arguments object, as the UTF-8 JSON text the runner put in memory. */
export function argumentsText(pointer: usize, length: i32): string {
  return String.UTF8.decodeUnsafe(pointer, <usize>length);
}

/** Hands `json` back to the runner: the address of its UTF-8 bytes and their length, packed. */
export function result(json: string): i64 {
  const bytes = String.UTF8.encode(json);
  return packed(changetype<usize>(bytes), bytes.byteLength);
}

export function packed(pointer: usize, length: i32): i64 {
  return ((<i64>pointer) << 32) | (<i64>length);
}

export function log(text: string): void {
  const bytes = String.UTF8.encode(text);
  hostLog(changetype<usize>(bytes), <usize>bytes.byteLength);
}

/** `text` as a JSON string literal (runs that need no escape are copied whole: the stub runtime never frees). */
export function quote(text: string): string {
  const parts = new Array<string>();
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c != 0x22 && c != 0x5c && c >= 0x20) continue;
    parts.push(text.substring(run, i));
    if (c == 0x22) parts.push('\\"');
    else if (c == 0x5c) parts.push('\\\\');
    else if (c == 0x0a) parts.push('\\n');
    else parts.push('\\u00' + (c < 0x10 ? '0' : '') + c.toString(16));
    run = i + 1;
  }
  parts.push(text.substring(run));
  return '"' + parts.join('') + '"';
}

/** A string property of a top-level JSON object, or `fallback` when it is absent or not a string. */
export function stringField(json: string, key: string, fallback: string = ''): string {
  const scanner = new Scanner(json);
  return scanner.seek(key) && scanner.peek() == 0x22 ? scanner.string() : fallback;
}

/** A number property of a top-level JSON object, or `fallback`. */
export function numberField(json: string, key: string, fallback: f64): f64 {
  const scanner = new Scanner(json);
  if (!scanner.seek(key)) return fallback;
  const start = scanner.at;
  scanner.skipValue();
  const value = parseFloat(json.substring(start, scanner.at));
  return isNaN(value) ? fallback : value;
}

/** A boolean property of a top-level JSON object (absent: false). */
export function booleanField(json: string, key: string): bool {
  const scanner = new Scanner(json);
  return scanner.seek(key) && json.startsWith('true', scanner.at);
}

class Scanner {
  constructor(
    public text: string,
    public at: i32 = 0,
  ) {}

  peek(): i32 {
    return this.at < this.text.length ? this.text.charCodeAt(this.at) : -1;
  }

  space(): void {
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at);
      if (c != 0x20 && c != 0x09 && c != 0x0a && c != 0x0d) break;
      this.at++;
    }
  }

  /** Moves to the value of `key` in the top-level object; false when the object has no such key. */
  seek(key: string): bool {
    this.space();
    if (this.peek() != 0x7b) return false;
    this.at++;
    while (this.at < this.text.length) {
      this.space();
      if (this.peek() != 0x22) return false;
      const name = this.string();
      this.space();
      if (this.peek() != 0x3a) return false;
      this.at++;
      this.space();
      if (name == key) return true;
      this.skipValue();
      this.space();
      if (this.peek() != 0x2c) return false;
      this.at++;
    }
    return false;
  }

  /** A JSON string at the cursor, unescaped. */
  string(): string {
    const parts = new Array<string>();
    this.at++;
    let run = this.at;
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at);
      if (c != 0x22 && c != 0x5c) {
        this.at++;
        continue;
      }
      parts.push(this.text.substring(run, this.at));
      this.at++;
      if (c == 0x22) return parts.join('');
      const e = this.text.charCodeAt(this.at++);
      if (e == 0x6e) parts.push('\n');
      else if (e == 0x74) parts.push('\t');
      else if (e == 0x72) parts.push('\r');
      else if (e == 0x62) parts.push('\b');
      else if (e == 0x66) parts.push('\f');
      else if (e == 0x75) {
        parts.push(String.fromCharCode(<i32>parseInt(this.text.substring(this.at, this.at + 4), 16)));
        this.at += 4;
      } else parts.push(String.fromCharCode(e));
      run = this.at;
    }
    return parts.join('');
  }

  /** Steps over one value of any kind. */
  skipValue(): void {
    let depth = 0;
    while (this.at < this.text.length) {
      const c = this.peek();
      if (c == 0x22) this.string();
      else if (c == 0x7b || c == 0x5b) {
        depth++;
        this.at++;
      } else if (c == 0x7d || c == 0x5d) {
        if (depth == 0) return;
        depth--;
        this.at++;
      } else if (depth == 0 && c == 0x2c) return;
      else this.at++;
      if (depth == 0 && (c == 0x22 || c == 0x7d || c == 0x5d)) return;
    }
  }
}
