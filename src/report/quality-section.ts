import type { QualityDistribution } from '../corpus/quality-distribution.js';
import { esc } from './plots/svg.js';

/** One small histogram as a table: label, count, a bar scaled to the largest count. */
function histogram(title: string, counts: Record<string, number>, order?: (a: string, b: string) => number): string {
  const entries = Object.entries(counts).sort(order ? ([a], [b]) => order(a, b) : ([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (entries.length === 0) return `<div class="hist"><h3>${esc(title)}</h3><p class="note">none</p></div>`;
  const max = Math.max(...entries.map(([, n]) => n));
  const rows = entries
    .map(([label, n]) => `<tr><td>${esc(label)}</td><td class="num">${n}</td><td><div class="bar" style="width:${Math.round((100 * n) / max)}px;height:10px;background:#4c78a8"></div></td></tr>`)
    .join('');
  return `<div class="hist"><h3>${esc(title)}</h3><table><tbody>${rows}</tbody></table></div>`;
}

// Buckets read `1`, `2-3`, `4-10`, `>40`: sort by their first number, the open bucket last.
const byBucket = (a: string, b: string): number => first(a) - first(b);
const first = (label: string): number => (label.startsWith('>') ? Infinity : Number.parseInt(label, 10));

/**
 * The report's "Bug quality" section (issue 14): how the run's valid bugs spread by breadth (tests
 * and test files their FAIL_TO_PASS spans), by kind (operator or strategy) and by how their tests
 * were weakened (single assertions or whole tests).
 */
export function qualitySection(quality: QualityDistribution): string {
  const lead = quality.bugs === 0
    ? '<p class="note">No valid bug with a quality record in this run yet (bug dirs written before ssr recorded it have none).</p>'
    : `<p class="lead">The ${quality.bugs} valid bug(s) of the run, each buggy tree once. Blunt bugs fail many tests across many files; the best hide behind a single deleted assertion.</p>`;
  const body = quality.bugs === 0 ? '' : `<div class="hists" style="display:flex;flex-wrap:wrap;gap:2em">${[
    histogram('failing tests (FAIL_TO_PASS)', quality.failingTests, byBucket),
    histogram('test files they span', quality.failingFiles, byBucket),
    histogram('kind', quality.kinds),
    histogram('weakening', quality.weakening),
  ].join('')}</div>`;
  return `<section id="quality"><h2>Bug quality</h2>${lead}${body}</section>`;
}
