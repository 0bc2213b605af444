// Fails as asked: {"mode": "unreachable" | "abort" | "bounds" | "recursion"}.
import { argumentsText, result, stringField } from './lib/io';
export { alloc } from './lib/io';

function deeper(n: i32): i32 {
  return n == -1 ? 0 : deeper(n + 1) + 1;
}

export function call(pointer: usize, length: i32): i64 {
  const mode = stringField(argumentsText(pointer, length), 'mode');
  if (mode == 'unreachable') unreachable();
  if (mode == 'abort') throw new Error('the input is not what this tool expects');
  if (mode == 'bounds') return <i64>load<u8>(0xfffffff0);
  if (mode == 'recursion') return <i64>deeper(0);
  return result('{}');
}
