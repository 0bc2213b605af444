import { source } from '@toolwright/sources';
import type { Integer } from '@toolwright/tool';

/** How often one word occurs. */
export interface WordCount {
  word: string;
  count: Integer;
}

/** What `word_stats` found in a text. */
export interface WordStats {
  words: Integer;
  lines: Integer;
  /** The most frequent words, most frequent first. */
  top: WordCount[];
}

// Runs `tools/word_stats.py` (any language would do: it reads the arguments as JSON on stdin and prints the result as
// JSON), with resource limits, inside the kernel sandbox where bubblewrap works.
/**
 * Counts the words and lines of a text and lists its most frequent words.
 * @param text The text to count.
 * @tier read-only
 * @timeout 10s
 */
export const wordStats = source.subprocess<(text: string) => Promise<WordStats>>(['python3', '../tools/word_stats.py'], {
  cpuSeconds: 5,
  processes: 4,
  maxMemory: '128MB',
});
