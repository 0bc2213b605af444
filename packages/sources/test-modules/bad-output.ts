// Returns a result the ABI does not allow: {"mode": "text" | "utf8" | "huge" | "outside"}.
import { argumentsText, packed, result, stringField } from './lib/io';
export { alloc } from './lib/io';

export function call(pointer: usize, length: i32): i64 {
  const mode = stringField(argumentsText(pointer, length), 'mode');
  if (mode == 'text') return result('this is not JSON');
  if (mode == 'utf8') {
    const bytes = heap.alloc(2);
    store<u8>(bytes, 0xc3);
    store<u8>(bytes + 1, 0x28);
    return packed(bytes, 2);
  }
  if (mode == 'huge') return result('"' + 'x'.repeat(1 << 20) + '"');
  if (mode == 'outside') return packed(0xfffff000, 0x2000);
  return result('{}');
}
