import { describe, expect, it } from 'vitest';
import { truncateOutput } from './truncate-output.js';

describe(truncateOutput, () => {
  it('leaves output within the cap untouched', () => {
    expect(truncateOutput('hello', 16)).toEqual({ text: 'hello', truncated: false, originalBytes: 5 });
  });

  it('keeps head and tail within the cap and appends the marker with the original size', () => {
    const text = `HEAD${'x'.repeat(200_000)}TAIL`;
    const result = truncateOutput(text, 16 * 1024);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(16 * 1024);
    expect(result.text.startsWith('HEAD')).toBe(true);
    expect(result.text).toContain('TAIL\n[output truncated — original size: 200,008 bytes]');
  });

  it('never splits a multi-byte character', () => {
    const text = '🙂é漢'.repeat(5_000);
    for (const cap of [100, 101, 102, 103, 1000, 4097]) {
      const result = truncateOutput(text, cap);
      expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(cap);
      expect(result.text).not.toContain('\uFFFD');
      expect(Buffer.from(result.text, 'utf8').toString('utf8')).toBe(result.text);
    }
  });
});
