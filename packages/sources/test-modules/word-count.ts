// A pure tool: counts the words, lines and characters of `text`.
import { argumentsText, log, quote, result, stringField } from './lib/io';
export { alloc } from './lib/io';

export function call(pointer: usize, length: i32): i64 {
  const text = stringField(argumentsText(pointer, length), 'text');
  let words = 0;
  let lines = text.length > 0 ? 1 : 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
    if (c == 0x0a) lines++;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  log('counted ' + words.toString() + ' words');
  return result('{"words":' + words.toString() + ',"lines":' + lines.toString() + ',"chars":' + text.length.toString() + ',"text":' + quote(text) + '}');
}
