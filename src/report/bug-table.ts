import { esc } from './plots/svg.js';
import type { BugRow } from './read-bug-rows.js';

/** Embedded diffs are cut here (the linked file has the rest): a report must stay openable. */
export const MAX_EMBEDDED_DIFF_CHARS = 100_000;

const pct = (rate: number | null): string => (rate === null ? '–' : `${Math.round(rate * 100)}%`);

/** A diff as escaped `<pre>` text, lines tinted by their prefix. */
export function diffHtml(diff: string): string {
  const cut = diff.length > MAX_EMBEDDED_DIFF_CHARS;
  const lines = (cut ? diff.slice(0, MAX_EMBEDDED_DIFF_CHARS) : diff).replace(/\n$/, '').split('\n');
  const body = lines
    .map((line) => {
      const kind = /^(diff |index |--- |\+\+\+ )/.test(line) ? 'head' : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : null;
      return kind ? `<span class="${kind}">${esc(line)}</span>` : esc(line);
    })
    .join('\n');
  const note = cut ? `\n… cut at ${MAX_EMBEDDED_DIFF_CHARS.toLocaleString('en')} characters of ${diff.length.toLocaleString('en')}: open the file for the rest` : '';
  return `<pre>${body || '(empty)'}${esc(note)}</pre>`;
}

/** A link to a file of the run dir, relative to the report (`linkBase` = report folder → run dir). */
function fileLink(linkBase: string, path: string, label: string, title?: string): string {
  return `<a href="${esc(encodeURI(`${linkBase}${path}`))}"${title ? ` title="${esc(title)}"` : ''}>${esc(label)}</a>`;
}

/**
 * The latest bugs as a table: one row of facts, then a row with the two diffs embedded
 * (collapsed) and linked. A parent that is in the table is linked to its row.
 */
export function bugTable(rows: readonly BugRow[], linkBase: string): string {
  if (rows.length === 0) return '<p class="note">No finished bug in this run yet.</p>';
  const shown = new Set(rows.map((row) => row.id));
  const head = ['bug', 'step', 'strategy', 'operators', 'files', 'lines', 'valid', 'failed check', 'solve rate', 'order', 'parent']
    .map((name) => `<th>${name}</th>`)
    .join('');
  const body = rows
    .map((row) => {
      const parent = row.parentBugId === null ? '–' : shown.has(row.parentBugId) ? `<a href="#bug-${esc(row.parentBugId)}">${esc(short(row.parentBugId))}</a>` : esc(short(row.parentBugId));
      const facts = [
        `<td>${fileLink(linkBase, `${row.relDir}/`, short(row.id), row.id)}</td>`,
        `<td class="num">${row.step ?? '–'}</td>`,
        `<td>${esc(row.strategy)}</td>`,
        `<td class="ops">${row.operators.length === 0 ? '–' : esc(row.operators.join(', '))}</td>`,
        `<td class="num">${row.files ?? '?'}</td>`,
        `<td class="num">${row.lines ?? '?'}</td>`,
        `<td>${row.valid ? '<span class="ok">✓ valid</span>' : '<span class="bad">✗ invalid</span>'}</td>`,
        `<td>${row.failedCheck === null ? '–' : esc(row.failedCheck)}</td>`,
        `<td class="num">${row.scored === 0 ? '–' : `${pct(row.solveRate)} <span class="ops">(${row.solves}/${row.scored})</span>`}</td>`,
        `<td class="num">${row.order}</td>`,
        `<td>${parent}</td>`,
      ];
      const diffs = [
        ['bug_inject.diff', row.bugInject],
        ['test_weaken.diff', row.testWeaken],
      ]
        .map(([name, text]) => `<details><summary>${esc(name!)} (${lineCount(text!)} lines)</summary>${diffHtml(text!)}</details>`)
        .join('');
      const links = ['bug_inject.diff', 'test_weaken.diff', 'validation.json', 'metadata.json'].map((file) => fileLink(linkBase, `${row.relDir}/${file}`, file)).join(' · ');
      return `<tr id="bug-${esc(row.id)}">${facts.join('')}</tr><tr class="diffs"><td colspan="11">${diffs}<span class="ops">files: ${links}</span></td></tr>`;
    })
    .join('\n');
  return `<table class="bugs"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function short(id: string): string {
  return id.length > 24 ? `${id.slice(0, 22)}…` : id;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}
