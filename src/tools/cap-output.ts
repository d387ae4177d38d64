/** Default tool-level cap on what one command shows the model (head + tail). */
export const DEFAULT_TOOL_OUTPUT_BYTES = 16 * 1024;

/**
 * Keep the head and the tail of `text` within `maxBytes` (UTF-8), cut at line boundaries where one
 * is near, and say how much was cut and how to see less: a model reading a silently clipped log
 * draws wrong conclusions. `totalBytes` is the size of the original output when a lower layer (the
 * sandbox) already cut its middle out of `text`. With the `command` that printed it, the note also
 * names the command that shows the next page (by lines, or by bytes when a line is longer than
 * the cap), so a large file is read in pages rather than given up on.
 */
export function capOutput(text: string, maxBytes: number = DEFAULT_TOOL_OUTPUT_BYTES, totalBytes?: number, command?: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const total = totalBytes ?? bytes.length;
  const half = Math.floor(maxBytes / 2);
  // Snap both cuts to a newline when one is near; the newlines at the cuts make way for the note's own.
  const lastNewline = bytes.lastIndexOf(0x0a, half);
  const headEnd = lastNewline >= half / 2 ? lastNewline : half;
  const firstNewline = bytes.indexOf(0x0a, bytes.length - half - 1);
  const tailStart = firstNewline >= 0 && firstNewline < bytes.length - half / 2 ? firstNewline + 1 : bytes.length - half;
  const cut = bytes.subarray(headEnd, tailStart);
  const onLines = headEnd === lastNewline && tailStart === firstNewline + 1 && total === bytes.length;
  const cutLines = cut.reduce((n, b) => (b === 0x0a ? n + 1 : n), 0) - 1;
  const shown = headEnd + bytes.length - tailStart;
  const note =
    `[... ${(total - shown).toLocaleString('en-US')} bytes${onLines ? ` (${cutLines} lines)` : ''} cut from the middle of ` +
    `${total.toLocaleString('en-US')} bytes of output; ` +
    `narrow the command (grep, head, tail, -q) to see what you need${command === undefined ? '' : nextPage(command, bytes.subarray(0, headEnd), maxBytes, headEnd === lastNewline)} ...]`;
  return `${bytes.subarray(0, headEnd).toString('utf8')}\n${note}\n${bytes.subarray(tailStart).toString('utf8')}`;
}

/** Commands longer than this (or multi-line) are not repeated in the note. */
const MAX_QUOTED_COMMAND = 200;

/** `; next page: …` naming the command that shows what follows the head that was shown. */
function nextPage(command: string, head: Buffer, maxBytes: number, headOnLine: boolean): string {
  const simple = !command.includes('\n') && command.length <= MAX_QUOTED_COMMAND;
  const source = simple ? `{ ${command.trim().replace(/;$/, '')}; }` : '<your command>';
  const page = Math.max(1, Math.floor(maxBytes / 2));
  if (headOnLine) {
    const lines = head.reduce((n, b) => (b === 0x0a ? n + 1 : n), 0) + 1;
    const from = lines + 1;
    return `; next page: ${source} | sed -n '${from},${from + Math.max(1, lines) - 1}p'`;
  }
  // The head ended inside a line longer than half the cap: page by bytes.
  return `; next page (a line is longer than the cap): ${source} | tail -c +${head.length + 1} | head -c ${page}`;
}
