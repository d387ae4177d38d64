/** A span of wall time, ms since the epoch; `end` null while it runs. */
export interface Interval {
  start: number;
  end: number | null;
}

/**
 * How long `span` overlapped any of `others` (their union: two steps sampling at once count
 * once), ms. Open intervals end at `now`.
 */
export function overlapMs(span: Interval, others: readonly Interval[], now = Date.now()): number {
  const end = span.end ?? now;
  const cut = others
    .map((other) => [Math.max(span.start, other.start), Math.min(end, other.end ?? now)] as const)
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reached = -Infinity;
  for (const [from, to] of cut) {
    const start = Math.max(from, reached);
    if (to > start) total += to - start;
    reached = Math.max(reached, to);
  }
  return total;
}
