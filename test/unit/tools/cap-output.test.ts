import { describe, expect, it } from 'vitest';
import { capOutput } from '../../../src/tools/cap-output.js';

describe('capOutput', () => {
  it('leaves output within the cap alone', () => {
    expect(capOutput('short\n', 100)).toBe('short\n');
    expect(capOutput('x'.repeat(100), 100)).toBe('x'.repeat(100));
  });

  it('keeps head and tail at line boundaries and says how much was cut', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}`);
    const text = lines.join('\n');
    const capped = capOutput(text, 1000);
    const [head, note, tail] = capped.split(/\n(\[\.\.\. .*\.\.\.\])\n/);
    expect(Buffer.byteLength(head! + tail!)).toBeLessThanOrEqual(1000);
    expect(head!.startsWith('line 0000\nline 0001')).toBe(true);
    expect(tail!.endsWith('line 0998\nline 0999')).toBe(true);
    // Whole lines on both sides of the cut.
    expect(head!.split('\n').every((l) => /^line \d{4}$/.test(l))).toBe(true);
    expect(tail!.split('\n').every((l) => /^line \d{4}$/.test(l))).toBe(true);
    const keptLines = head!.split('\n').length + tail!.split('\n').length;
    const cutBytes = Buffer.byteLength(text) - Buffer.byteLength(head!) - Buffer.byteLength(tail!);
    expect(note).toBe(
      `[... ${cutBytes.toLocaleString('en-US')} bytes (${1000 - keptLines} lines) cut from the middle of 9,999 bytes of output; ` +
        'narrow the command (grep, head, tail, -q) to see what you need ...]',
    );
  });

  it('cuts a single long line by bytes and counts what the sandbox already dropped', () => {
    const capped = capOutput('a'.repeat(5000) + 'b'.repeat(5000), 1000, 80_000);
    expect(capped).toBe(
      `${'a'.repeat(500)}\n[... 79,000 bytes cut from the middle of 80,000 bytes of output; ` +
        `narrow the command (grep, head, tail, -q) to see what you need ...]\n${'b'.repeat(500)}`,
    );
  });

  it('names the command that shows the next page of lines after the head it kept', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${String(i + 1).padStart(4, '0')}`).join('\n');
    const capped = capOutput(text, 1000, undefined, 'cat big.txt');
    const head = capped.split('\n[... ')[0]!.split('\n');
    const next = /next page: \{ cat big\.txt; \} \| sed -n '(\d+),(\d+)p' \.\.\.\]/.exec(capped);
    expect(next, capped).not.toBeNull();
    // The page starts at the first line not shown and is as long as the head.
    expect(`line ${next![1]!.padStart(4, '0')}`).toBe(`line ${String(head.length + 1).padStart(4, '0')}`);
    expect(Number(next![2]) - Number(next![1]) + 1).toBe(head.length);
  });

  it('pages by bytes when a line is longer than the cap, and never repeats a multi-line command', () => {
    const capped = capOutput('a'.repeat(5000) + 'b'.repeat(5000), 1000, undefined, 'python3 gen.py');
    expect(capped).toContain('; next page (a line is longer than the cap): { python3 gen.py; } | tail -c +501 | head -c 500 ...]');
    expect(capOutput('x'.repeat(5000), 1000, undefined, 'a\nb')).toContain('<your command> | tail -c +501');
  });
});
