import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { readEpisodes } from '../../corpus/read-episodes.js';
import { runPaths } from '../../corpus/run-layout.js';
import { totalTestRuns } from '../../harness/test-run-counts.js';
import { median as medianOf } from '../../util/median.js';
import { goldenGateSchema } from '../golden-gate/judge-golden-gate.js';
import { addPhaseSeconds, phaseSeconds, renderPhaseTable, type PhaseSeconds } from './corpus-phase-figures.js';

/** One `ssr corpus` run of the bench: one repo, one build, one repetition. */
export interface CorpusRunFigures {
  repo: string;
  build: string;
  rep: number;
  /** Wall time of the whole command (CLI start, golden gate, episodes), s. */
  wallS: number;
  /** Cores the run was allotted (the machine's, unless told): core-seconds are wallS × cores. */
  cores: number;
  episodes: number;
  /** Valid order-1 bugs, duplicates of an earlier one not counted. */
  valid: number;
  /** The faster of the golden gate's two clean runs, s; null when the gate did not pass. */
  cleanS: number | null;
  /** Test runs the episodes recorded (null: a build that does not count them). */
  testRuns: number | null;
  fullRuns: number | null;
  /** The 1-minute load average when the run started and ended. */
  load: [number, number];
  /** Where the episodes' time went, by phase (episode-seconds). */
  phases: PhaseSeconds;
}

/** Read a finished run dir into its figures. */
export async function corpusRunFigures(out: string, base: Omit<CorpusRunFigures, 'episodes' | 'valid' | 'cleanS' | 'testRuns' | 'fullRuns' | 'phases'>): Promise<CorpusRunFigures> {
  const gates = z.array(goldenGateSchema).parse(JSON.parse(readFileSync(runPaths(out).goldenGate, 'utf8')));
  const gate = gates.find((g) => g.repo === base.repo);
  const records = (await readEpisodes(out)).filter((record) => record.order === 1);
  const counted = records.filter((record) => record.testRuns !== undefined);
  const totals = counted.map((record) => totalTestRuns(record.testRuns));
  return {
    ...base,
    episodes: records.length,
    valid: records.filter((record) => record.valid === true && record.duplicateOf === undefined).length,
    cleanS: gate?.status === 'passed' ? Math.min(...gate.cleanMs) / 1000 : null,
    testRuns: counted.length === 0 ? null : totals.reduce((sum, t) => sum + t.runs, 0),
    fullRuns: counted.length === 0 ? null : totals.reduce((sum, t) => sum + t.full, 0),
    phases: phaseSeconds(records),
  };
}

/** Per valid bug: seconds, core-seconds, × the clean suite, test runs; bugs per hour per core. Null without a valid bug. */
export function perValidBug(run: CorpusRunFigures): { bugsPerCoreHour: number; s: number; coreS: number; xClean: number | null; runs: number | null; fullRuns: number | null } {
  const s = run.valid === 0 ? Infinity : run.wallS / run.valid;
  return {
    bugsPerCoreHour: (run.valid * 3600) / (run.wallS * run.cores),
    s,
    coreS: s * run.cores,
    xClean: run.cleanS === null || run.cleanS === 0 ? null : s / run.cleanS,
    runs: run.testRuns === null || run.valid === 0 ? null : run.testRuns / run.valid,
    fullRuns: run.fullRuns === null || run.valid === 0 ? null : run.fullRuns / run.valid,
  };
}

/** The median of the finite values, null when there are none. */
export function median(values: readonly number[]): number | null {
  const finite = values.filter((v) => Number.isFinite(v));
  return finite.length === 0 ? null : medianOf(finite);
}

const show = (value: number | null, digits = 1): string => (value === null || !Number.isFinite(value) ? '–' : value.toFixed(digits));

/**
 * The bench table: per repo and build, each repetition's figure and (bold) the median, then the
 * ratio of the medians of the second build to the first when two were measured. Pure.
 */
export function renderCorpusBench(runs: readonly CorpusRunFigures[], setting: { perRepo: number; seed: string; builds: readonly string[] }): string {
  const lines = [
    `ssr corpus, procedural policy, ${setting.perRepo} episode(s) per repo, seed ${setting.seed}, builds ${setting.builds.join(' vs ')}`,
    '',
    '| repo | build | clean s | valid / episodes | valid bugs / h / core | s per valid bug | × clean | core-s per valid bug | test runs per valid bug (full) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const repos = [...new Set(runs.map((run) => run.repo))];
  const medians = new Map<string, number | null>();
  for (const repo of repos) {
    for (const build of setting.builds) {
      const mine = runs.filter((run) => run.repo === repo && run.build === build).sort((a, b) => a.rep - b.rep);
      if (mine.length === 0) continue;
      const per = mine.map(perValidBug);
      const cell = (values: (number | null)[], digits = 1): string => {
        const m = median(values.filter((v): v is number => v !== null));
        return `${values.map((v) => show(v, digits)).join(' / ')} (**${show(m, digits)}**)`;
      };
      const sMedian = median(per.map((p) => p.s));
      medians.set(`${repo}\0${build}`, sMedian);
      const runsCell = per.map((p) => (p.runs === null ? '–' : `${show(p.runs)} (${show(p.fullRuns)})`)).join(' / ');
      lines.push(
        `| ${repo} | ${build} | ${show(median(mine.flatMap((r) => (r.cleanS === null ? [] : [r.cleanS]))), 2)} | ${mine.map((r) => `${r.valid}/${r.episodes}`).join(' / ')} | ` +
          `${cell(per.map((p) => p.bugsPerCoreHour), 2)} | ${cell(per.map((p) => p.s))} | ${cell(per.map((p) => p.xClean))} | ${cell(per.map((p) => p.coreS), 0)} | ${runsCell} |`,
      );
    }
  }
  if (setting.builds.length === 2) {
    const [before, after] = setting.builds;
    lines.push('', `s per valid bug, median of ${after} / median of ${before}:`);
    for (const repo of repos) {
      const a = medians.get(`${repo}\0${before}`);
      const b = medians.get(`${repo}\0${after}`);
      lines.push(`- ${repo}: ${a && b ? `${(b / a).toFixed(2)}×` : '–'}`);
    }
  }
  const phaseRows = repos.flatMap((repo) => setting.builds.flatMap((build) => {
    const mine = runs.filter((run) => run.repo === repo && run.build === build);
    return mine.length === 0 ? [] : [{ repo, build, valid: mine.reduce((sum, run) => sum + run.valid, 0), seconds: addPhaseSeconds(mine.map((run) => run.phases)) }];
  }));
  lines.push(
    '',
    'Where the time goes: episode-seconds per valid bug by phase (repetitions pooled) and their share of all episode time (episodes overlap, so they add up to more than the wall time):',
    '',
    renderPhaseTable(phaseRows).trimEnd(),
  );
  const loads = runs.flatMap((run) => run.load);
  lines.push('', `machine load seen (1-min load average at each run's start and end): min ${show(Math.min(...loads))}, median ${show(median(loads))}, max ${show(Math.max(...loads))} on ${runs[0]?.cores ?? '?'} cores`);
  return `${lines.join('\n')}\n`;
}
