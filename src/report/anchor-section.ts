import type { StepMetrics } from '../selfplay/step-metrics.js';
import { percent } from './format.js';
import { esc } from './plots/svg.js';

type Steps = readonly Pick<StepMetrics, 'step' | 'anchor' | 'solveRate'>[];

const anchored = (steps: Steps) => steps.filter((step) => step.anchor !== undefined);

function totals(steps: Steps): { episodes: number; attempts: number; solved: number } {
  return anchored(steps).reduce((sum, step) => ({ episodes: sum.episodes + step.anchor!.episodes, attempts: sum.attempts + step.anchor!.solverAttempts, solved: sum.solved + step.anchor!.solved }), { episodes: 0, attempts: 0, solved: 0 });
}

/** The text summary's line on anchoring: anchor episodes and their solve rate, per step beside the synthetic order-1 rate; null for a run without anchoring. */
export function anchorLine(steps: Steps): string | null {
  const shown = anchored(steps);
  if (shown.length === 0) return null;
  const t = totals(shown);
  const perStep = shown.map((step) => `${step.step}: ${step.anchor!.solved}/${step.anchor!.solverAttempts} (synthetic o1 ${percent(step.solveRate.order1)})`).join(', ');
  return `anchoring: ${t.episodes} anchor episode(s), anchor solve rate ${percent(t.attempts === 0 ? null : t.solved / t.attempts)} (${t.solved}/${t.attempts}); per step: ${perStep}`;
}

/** The report's "Anchoring" section: per step, the anchor bugs solved beside the synthetic order-1 solve rate; '' without anchoring. */
export function anchorSection(steps: Steps): string {
  const shown = anchored(steps);
  if (shown.length === 0) return '';
  const t = totals(shown);
  const rows = shown.map((step) => {
    const a = step.anchor!;
    return `<tr><td class="num">${step.step}</td><td class="num">${a.episodes}</td><td class="num">${a.discarded}</td><td class="num">${a.solved}/${a.solverAttempts}</td><td class="num">${percent(a.solveRate)}</td><td class="num">${percent(step.solveRate.order1)}</td></tr>`;
  });
  return `<section id="anchoring"><h2>Anchoring</h2><p class="lead">${esc(`Real bugs of the anchor set mixed into the Solver groups: ${t.episodes} anchor episode(s), ${t.solved} of ${t.attempts} scored attempts solved. They are graded and trained like synthetic bugs, and counted apart from them.`)}</p>`
    + '<table><thead><tr><th>step</th><th>anchor episodes</th><th>discarded</th><th>solved / scored</th><th>anchor solve rate</th><th>synthetic order-1 solve rate</th></tr></thead>'
    + `<tbody>${rows.join('')}</tbody></table></section>`;
}
