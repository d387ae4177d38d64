import type { EpisodeLoss } from './episode-loss.js';

/** One catalogue repo's figures in the bench-real-repos table. */
export interface RealRepoRow {
  repo: string;
  /** Tests the golden gate saw; null when the run never got past it. */
  tests: number | null;
  /** The faster of the gate's two clean runs, s. */
  cleanS: number | null;
  byStrategy: Record<string, { valid: number; episodes: number }>;
  /** Wall time of the self-play step (episodes + their validation and Solver attempts), s. */
  stepS: number;
  losses: Array<EpisodeLoss & { episode: string; strategy: string }>;
  /** The mix's note when it adapted the strategies to the repo. */
  notes: string[];
  /** Set when the run did not finish (e.g. the golden gate refused the repo). */
  failure?: string;
}

function count(losses: readonly EpisodeLoss[]): string {
  const byType = new Map<string, number>();
  for (const loss of losses) byType.set(loss.type, (byType.get(loss.type) ?? 0) + 1);
  return [...byType].map(([type, n]) => `${type}:${n}`).join(' ') || '-';
}

/** The table, then every loss's reason. Pure. */
export function renderRealReposTable(rows: readonly RealRepoRow[], setting: { episodes: number; attempts: number; strategy: string }): string {
  const header = `procedural self-play, ${setting.episodes} order-1 episodes per repo, --strategy ${setting.strategy}, ${setting.attempts} Solver attempt(s) per valid bug`;
  const lines = [header, '', '| repo | tests | clean s | valid / episodes | by strategy | s per valid bug | × clean | losses by class |', '|---|---:|---:|---:|---|---:|---:|---|'];
  const reasons: string[] = [];
  for (const row of rows) {
    if (row.failure !== undefined) {
      lines.push(`| ${row.repo} | - | - | - | - | - | - | not run: ${row.failure.replace(/\|/g, '/')} |`);
      continue;
    }
    const tallies = Object.values(row.byStrategy);
    const valid = tallies.reduce((n, t) => n + t.valid, 0);
    const episodes = tallies.reduce((n, t) => n + t.episodes, 0);
    const perBug = valid === 0 ? null : row.stepS / valid;
    const strategies = Object.entries(row.byStrategy).map(([name, t]) => `${name} ${t.valid}/${t.episodes}`).join(', ');
    const ratio = perBug === null || row.cleanS === null || row.cleanS === 0 ? '-' : `${(perBug / row.cleanS).toFixed(0)}×`;
    const pct = episodes === 0 ? '-' : `${Math.round((100 * valid) / episodes)} %`;
    lines.push(
      `| ${row.repo} | ${row.tests ?? '-'} | ${row.cleanS?.toFixed(1) ?? '-'} | ${valid}/${episodes} (${pct}) | ${strategies || '-'} | ${perBug === null ? '-' : perBug.toFixed(0)} | ${ratio} | ${count(row.losses)} |`,
    );
    for (const loss of row.losses) reasons.push(`- ${row.repo} ${loss.strategy} ${loss.type}: ${loss.reason.replace(/\s+/g, ' ').slice(0, 240)}`);
    for (const note of row.notes) reasons.push(`- ${row.repo} (mix): ${note}`);
  }
  return `${lines.join('\n')}\n${reasons.length > 0 ? `\nReasons:\n${reasons.join('\n')}\n` : ''}`;
}
