// asc: --importMemory --maximumMemory 65536
// The memory bomb with its memory imported from the host (`env.memory`), declaring the largest maximum there is.
import { result } from './lib/io';
export { alloc } from './lib/io';

export function call(_pointer: usize, _length: i32): i64 {
  let total: usize = 0;
  for (;;) {
    const block = heap.alloc(1 << 20);
    store<u8>(block + (1 << 19), 1);
    total += 1 << 20;
    if (total == 0) break;
  }
  return result('{}');
}
