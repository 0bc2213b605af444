// GETs a URL through the host: {"url", "strict"?}. Answers {"status", "length"} of the response, or the host's
// negative {"code"}; with `strict`, a failed request aborts the module instead.
import { http_get, http_status } from './lib/toolwright';
import { argumentsText, booleanField, result, stringField } from './lib/io';
export { alloc } from './lib/io';

export function call(pointer: usize, length: i32): i64 {
  const json = argumentsText(pointer, length);
  const url = String.UTF8.encode(stringField(json, 'url'));
  const packed = http_get(changetype<usize>(url), <usize>url.byteLength);
  if (packed < 0) {
    if (booleanField(json, 'strict')) abort('http_get failed: ' + packed.toString());
    return result('{"code":' + packed.toString() + '}');
  }
  const bodyLength = packed & 0xffffffff;
  return result('{"status":' + http_status().toString() + ',"length":' + bodyLength.toString() + '}');
}
