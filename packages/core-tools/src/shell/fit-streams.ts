import { headWithin, modelSize, tailWithin } from '../model-text/output-budget.js';

/** Output of one stream: its text (perhaps already cut in the middle) and how many bytes it wrote. */
export interface StreamText {
  text: string;
  totalBytes: number;
}

/**
 * stdout and stderr cut so that together they fit in `room`: the shorter one keeps all it needs up to
 * half the room, the other takes the rest; a cut keeps each stream's head and tail (errors and
 * summaries sit at the end) and says in the middle how much was left out. Returns undefined when
 * both fit as they are.
 */
export function fitStreams(stdout: StreamText, stderr: StreamText, room: number): [string, string] | undefined {
  const outSize = modelSize(stdout.text);
  const errSize = modelSize(stderr.text);
  if (outSize + errSize <= room) return undefined;
  const half = Math.floor(room / 2);
  const errRoom = errSize <= half ? errSize : outSize <= half ? room - outSize : half;
  return [headAndTail(stdout, room - errRoom), headAndTail(stderr, errRoom)];
}

const MARKER_ROOM = 120;

function headAndTail(stream: StreamText, room: number): string {
  if (modelSize(stream.text) <= room) return stream.text;
  const keep = Math.max(0, room - MARKER_ROOM);
  const head = headWithin(stream.text, Math.ceil(keep / 2));
  const tail = tailWithin(stream.text, Math.floor(keep / 2));
  const omitted = Math.max(0, stream.totalBytes - Buffer.byteLength(head) - Buffer.byteLength(tail));
  const before = head === '' || head.endsWith('\n') ? '' : '\n';
  const after = tail === '' || tail.startsWith('\n') ? '' : '\n';
  return `${head}${before}[... ${omitted} bytes omitted; rerun piped through head, tail or grep to see them ...]${after}${tail}`;
}
