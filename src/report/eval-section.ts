import type { EvalRow, InstanceOutcome } from '../evaluation/eval-table.js';
import { percent } from './format.js';
import { htmlPage } from './html-page.js';
import { esc } from './plots/svg.js';

/** What the section needs of `eval.json` (EvalSummary). */
export interface EvalSectionInput {
  set: string;
  policy: { name: string; version: number };
  attempts: number;
  all: EvalRow;
  byRepo: EvalRow[];
  byKind: EvalRow[];
  outcomes: InstanceOutcome[];
}

function table(title: string, rows: EvalRow[], k: number): string {
  const head = [title, 'instances', 'invalid', 'attempts', 'solved', 'solve rate', 'pass@1', `pass@${k}`].map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows
    .map((row) => `<tr><td>${esc(row.group)}</td>${[row.instances, row.invalid, row.attempts, row.solved].map((n) => `<td class="num">${n}</td>`).join('')}${[row.solveRate, row.passAt1, row.passAtK].map((r) => `<td class="num">${percent(r)}</td>`).join('')}</tr>`)
    .join('');
  return `<table class="bugs"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/**
 * The report's "Held-out evaluation" section (`ssr eval`): the policy's solve rate and pass@k on
 * the set, per repo and per bug kind (`mined` rows are real bugs), then each instance.
 */
export function evalSection(summary: EvalSectionInput): string {
  const k = summary.attempts;
  const instances = summary.outcomes
    .map((o) => `<tr><td><code>${esc(o.instanceId)}</code></td><td>${esc(o.repo)}</td><td>${esc(o.kind)}</td><td class="num">${o.status === 'invalid' ? 'invalid' : `${o.solved}/${o.scored}`}</td></tr>`)
    .join('');
  return [
    '<h2 id="eval">Held-out evaluation</h2>',
    `<p class="lead">Policy <code>${esc(summary.policy.name)}</code> (version ${summary.policy.version}), ${k} attempt(s) per instance on <code>${esc(summary.set)}</code>, each graded as <code>ssr grade</code> grades. pass@k is the unbiased estimate from the scored attempts; invalid instances are left out of the rates.</p>`,
    `<div class="tiles"><div class="tile"><div class="v">${percent(summary.all.solveRate)}</div><div class="k">solve rate</div></div><div class="tile"><div class="v">${percent(summary.all.passAtK)}</div><div class="k">pass@${k}</div></div><div class="tile"><div class="v">${summary.all.instances}</div><div class="k">instances</div></div></div>`,
    table('repo', [...summary.byRepo, summary.all], k),
    table('bug kind', [...summary.byKind, summary.all], k),
    `<details><summary>every instance</summary><table class="bugs"><thead><tr><th>instance</th><th>repo</th><th>kind</th><th>solved</th></tr></thead><tbody>${instances}</tbody></table></details>`,
  ].join('\n');
}

/** A whole page around {@link evalSection}: `<eval dir>/report.html`. */
export function evalReportPage(summary: EvalSectionInput): string {
  return htmlPage(`ssr eval: ${summary.policy.name} on ${summary.set}`, `<h1>ssr eval</h1>\n<p class="meta">${esc(summary.set)}</p>\n${evalSection(summary)}`);
}
