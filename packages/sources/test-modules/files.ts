// Reads or writes one workspace file through the host: {"op": "read"|"write", "path", "text"?, "strict"?}.
// Answers the host's status; with `strict`, a refusal aborts the module instead.
import { read_file, write_file } from './lib/toolwright';
import { argumentsText, booleanField, quote, result, stringField } from './lib/io';
export { alloc } from './lib/io';

export function call(pointer: usize, length: i32): i64 {
  const json = argumentsText(pointer, length);
  const path = String.UTF8.encode(stringField(json, 'path'));
  const strict = booleanField(json, 'strict');
  if (stringField(json, 'op') == 'read') {
    const packed = read_file(changetype<usize>(path), <usize>path.byteLength);
    if (packed < 0) {
      if (strict) abort('read refused: ' + packed.toString());
      return result('{"code":' + packed.toString() + '}');
    }
    const content = String.UTF8.decodeUnsafe(<usize>(packed >>> 32), <usize>(packed & 0xffffffff));
    return result('{"code":0,"content":' + quote(content) + '}');
  }
  const data = String.UTF8.encode(stringField(json, 'text'));
  const code = write_file(changetype<usize>(path), <usize>path.byteLength, changetype<usize>(data), <usize>data.byteLength);
  if (code < 0 && strict) abort('write refused: ' + code.toString());
  return result('{"code":' + code.toString() + '}');
}
