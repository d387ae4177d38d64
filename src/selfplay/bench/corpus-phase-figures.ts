import type { EpisodeRecord } from '../../corpus/episode-record.js';
import { INJECTOR_PHASES } from '../../policy/procedural/phase-times.js';

/**
 * The columns of the breakdown, in an episode's order: the inject stage's recorded phases
 * (`sandbox`, then the procedural Injector's), `agent` (the rest of inject: the loop, the
 * sandbox's disposal), `validate`, `solve`, and `other` (the rest of the episode: scoring, storing).
 */
export const PHASE_COLUMNS = ['sandbox', ...INJECTOR_PHASES, 'agent', 'validate', 'solve', 'other'] as const;

/** Episode-seconds of one run, summed over its order-1 episodes. */
export interface PhaseSeconds {
  /** Per column of {@link PHASE_COLUMNS} (and any phase a later build records), s. */
  phases: Record<string, number>;
  /** All episodes' total time, s: the shares' denominator. */
  episodes: number;
  /** Of which episodes that gave no new valid bug (gave up, invalid, duplicate, discarded), s. */
  noValidBug: number;
  /** Episodes whose inject time is split by phase (the others count whole under `agent`). */
  timed: number;
}

/**
 * Where a run's episode time went, per phase. Episodes run side by side (the `episodes` lane), so
 * these are episode-seconds, which can exceed the run's wall time; their shares do not depend on
 * that. An episode recorded before phases existed counts its whole inject under `agent`. Pure.
 */
export function phaseSeconds(records: readonly EpisodeRecord[]): PhaseSeconds {
  const phases: Record<string, number> = Object.fromEntries(PHASE_COLUMNS.map((column) => [column, 0]));
  let episodes = 0;
  let noValidBug = 0;
  let timed = 0;
  for (const record of records.filter((r) => r.order === 1)) {
    const { inject, validate, solve, total } = record.durationsMs;
    const split = record.injectPhasesMs ?? {};
    let splitMs = 0;
    for (const [phase, ms] of Object.entries(split)) {
      phases[phase] = (phases[phase] ?? 0) + ms / 1000;
      splitMs += ms;
    }
    if (record.injectPhasesMs) timed += 1;
    phases.agent! += Math.max(0, inject - splitMs) / 1000;
    phases.validate! += validate / 1000;
    phases.solve! += solve / 1000;
    phases.other! += Math.max(0, total - inject - validate - solve) / 1000;
    episodes += total / 1000;
    if (!(record.valid === true && record.duplicateOf === undefined)) noValidBug += total / 1000;
  }
  return { phases, episodes, noValidBug, timed };
}

/** Several runs' episode-seconds added up (a build's repetitions). */
export function addPhaseSeconds(list: readonly PhaseSeconds[]): PhaseSeconds {
  const phases: Record<string, number> = {};
  for (const item of list) for (const [phase, s] of Object.entries(item.phases)) phases[phase] = (phases[phase] ?? 0) + s;
  const sum = (key: 'episodes' | 'noValidBug' | 'timed'): number => list.reduce((total, item) => total + item[key], 0);
  return { phases, episodes: sum('episodes'), noValidBug: sum('noValidBug'), timed: sum('timed') };
}

/**
 * The breakdown table: per repo and build (repetitions pooled), each phase's episode-seconds per
 * valid bug and its share of all episode time, and the share spent in episodes that gave no valid
 * bug. Phases that took no time in any run are left out. Pure.
 */
export function renderPhaseTable(rows: ReadonlyArray<{ repo: string; build: string; valid: number; seconds: PhaseSeconds }>): string {
  const known: readonly string[] = PHASE_COLUMNS;
  const extra = [...new Set(rows.flatMap((row) => Object.keys(row.seconds.phases)))].filter((phase) => !known.includes(phase));
  const columns = [...PHASE_COLUMNS, ...extra].filter((phase) => rows.some((row) => (row.seconds.phases[phase] ?? 0) > 0));
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const lines = [row(['repo', 'build', 'valid', ...columns, 'episodes without a valid bug']), `|---|---|---:|${columns.map(() => '---:|').join('')}---:|`];
  for (const { repo, build, valid, seconds } of rows) {
    const share = (s: number): string => (seconds.episodes > 0 ? `${Math.round((100 * s) / seconds.episodes)} %` : '–');
    const perBug = (s: number): string => (valid > 0 ? (s / valid).toFixed(1) : '–');
    const cells = columns.map((phase) => {
      const s = seconds.phases[phase] ?? 0;
      return `${perBug(s)} (${share(s)})`;
    });
    lines.push(row([repo, build, String(valid), ...cells, share(seconds.noValidBug)]));
  }
  return `${lines.join('\n')}\n`;
}
