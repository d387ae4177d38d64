/**
 * Lines `from`..`to` (1-based, inclusive) plus `context` lines either side, numbered like `cat -n`
 * so the model can quote them back in the next edit.
 */
export function numberedSnippet(lines: readonly string[], from: number, to: number, context = 4): string {
  const first = Math.max(1, from - context);
  const last = Math.min(lines.length, Math.max(to, from - 1) + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) out.push(`${String(n).padStart(width)}\t${lines[n - 1]}`);
  return out.join('\n');
}
