// The JSON glue of the plug-in (AssemblyScript has no JSON.parse): the runner's `alloc`, one string and
// one number read from the arguments object, and the result handed back.

/** The runner's `alloc`: memory for the arguments (the stub runtime never frees; each call gets a fresh instance). */
export function alloc(size: i32): usize {
  return heap.alloc(<usize>size);
}

/** Hands `json` back to the runner: the address of its UTF-8 bytes and their length, packed in an i64. */
export function result(json: string): i64 {
  const bytes = String.UTF8.encode(json);
  return ((<i64>changetype<usize>(bytes)) << 32) | (<i64>bytes.byteLength);
}

/** The index just past `"key":` (and any spaces) in a top-level object, or -1. Keys inside string values are skipped. */
function valueAt(json: string, key: string): i32 {
  const quoted = '"' + key + '"';
  let depth = 0;
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c == 0x22) {
      if (depth == 1 && json.startsWith(quoted, i)) {
        let j = i + quoted.length;
        while (j < json.length && json.charCodeAt(j) == 0x20) j++;
        if (json.charCodeAt(j) == 0x3a) {
          j++;
          while (j < json.length && json.charCodeAt(j) == 0x20) j++;
          return j;
        }
      }
      i = stringEnd(json, i);
      continue;
    }
    if (c == 0x7b || c == 0x5b) depth++;
    else if (c == 0x7d || c == 0x5d) depth--;
    i++;
  }
  return -1;
}

/** The index just past the string literal that starts at `start`. */
function stringEnd(json: string, start: i32): i32 {
  let i = start + 1;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c == 0x5c) i += 2;
    else if (c == 0x22) return i + 1;
    else i++;
  }
  return i;
}

/** A string property of the arguments object, unescaped; `""` when absent. */
export function stringField(json: string, key: string): string {
  const at = valueAt(json, key);
  if (at < 0 || json.charCodeAt(at) != 0x22) return '';
  const parts = new Array<string>();
  let run = at + 1;
  let i = run;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c == 0x22) break;
    if (c != 0x5c) {
      i++;
      continue;
    }
    parts.push(json.substring(run, i));
    const e = json.charCodeAt(i + 1);
    if (e == 0x75) {
      parts.push(String.fromCharCode(<i32>parseInt(json.substring(i + 2, i + 6), 16)));
      i += 6;
    } else {
      parts.push(e == 0x6e ? '\n' : e == 0x74 ? '\t' : e == 0x72 ? '\r' : String.fromCharCode(e));
      i += 2;
    }
    run = i;
  }
  parts.push(json.substring(run, i));
  return parts.join('');
}

/** A number property of the arguments object, or `fallback` when absent. */
export function numberField(json: string, key: string, fallback: f64): f64 {
  const at = valueAt(json, key);
  if (at < 0) return fallback;
  const value = parseFloat(json.substring(at));
  return isNaN(value) ? fallback : value;
}
