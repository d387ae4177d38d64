import { splitText } from '../../../tools/line-match.js';
import { lineEditBetween, type LineEdit } from './line-edit.js';

/** A run of whole lines to delete: 1-based, inclusive. */
export interface Span {
  start: number;
  end: number;
}

/** Kept lines between two deletions up to which both go into one `edit` call (fewer turns, short messages). */
const MERGE_GAP = 24;

/**
 * The `edit` calls that delete `spans` (sorted, not overlapping: see {@link mergeSpans}) from
 * `source`: nearby spans share one call; calls are planned bottom-up so the line numbers of those
 * still to plan stay valid, and returned in that order, to be made in it: each search block is
 * unique in the text the calls before it leave, which is where it is applied (applied top-down, a
 * block made unique by a lower deletion could match twice: a test repeated further down).
 * `after` is the text once all are made.
 */
export function editsDeleting(source: string, spans: readonly Span[]): { edits: LineEdit[]; after: string } {
  const edits: LineEdit[] = [];
  let current = source;
  for (const cluster of clusters(spans).reverse()) {
    const next = deleteLines(current, cluster);
    const edit = lineEditBetween(current, next);
    if (!edit) continue;
    edits.push(edit);
    current = next;
  }
  return { edits, after: current };
}

/** Spans sorted by start, overlapping or adjacent ones merged. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start <= last.end + 1) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

function clusters(spans: readonly Span[]): Span[][] {
  const out: Span[][] = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last && span.start - last.at(-1)!.end - 1 <= MERGE_GAP) last.push(span);
    else out.push([span]);
  }
  return out;
}

function deleteLines(text: string, spans: readonly Span[]): string {
  const split = splitText(text);
  const kept = split.lines.filter((_, i) => !spans.some((s) => i + 1 >= s.start && i + 1 <= s.end));
  return kept.join(split.eol) + (split.finalNewline && kept.length > 0 ? split.eol : '');
}
