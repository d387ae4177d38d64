import { median } from '../../util/median.js';

/**
 * One pair of runs of the same tests: bare (the script alone) and ssr's (runTests), both in one
 * sandbox used before (`where: 'same'`, the default), or each the first command of a fresh sandbox
 * (`'fresh'`, as validation runs every state: what a fresh container costs the run shows there).
 */
export interface OverheadSample {
  build: string;
  rep: number;
  bare: { wallMs: number; cpuMs: number | null };
  ssr: { wallMs: number; cpuMs: number | null };
  where?: 'same' | 'fresh';
}

const HEADINGS = {
  same: 'per test run, one sandbox: ssr runTests (guarded) vs `bash test_script.sh` alone',
  fresh: 'per test run, a fresh sandbox each (as validation runs every state): ssr runTests (guarded) vs `bash test_script.sh` alone',
} as const;

/** Per build, the medians of each repetition's samples (a repetition is one sandbox, several pairs). */
interface RepFigures {
  rep: number;
  overheadWallMs: number;
  ratioWall: number;
  overheadCpuMs: number | null;
  ratioCpu: number | null;
}

function repFigures(samples: readonly OverheadSample[]): RepFigures[] {
  const reps = [...new Set(samples.map((s) => s.rep))].sort((a, b) => a - b);
  return reps.map((rep) => {
    const mine = samples.filter((s) => s.rep === rep);
    const cpu = mine.every((s) => s.bare.cpuMs !== null && s.ssr.cpuMs !== null);
    return {
      rep,
      overheadWallMs: median(mine.map((s) => s.ssr.wallMs - s.bare.wallMs)),
      ratioWall: median(mine.map((s) => s.ssr.wallMs / s.bare.wallMs)),
      overheadCpuMs: cpu ? median(mine.map((s) => s.ssr.cpuMs! - s.bare.cpuMs!)) : null,
      ratioCpu: cpu ? median(mine.map((s) => s.ssr.cpuMs! / s.bare.cpuMs!)) : null,
    };
  });
}

const ms = (value: number | null): string => (value === null ? 'n/a' : `${value.toFixed(0)} ms`);
const x = (value: number | null): string => (value === null ? 'n/a' : `${value.toFixed(2)}x`);
const each = (values: readonly (number | null)[], format: (v: number | null) => string): string => values.map(format).join(', ');

/**
 * The per-run section of bench-validate: for each build, ssr's overhead per test run (ssr's run
 * minus the bare run of the same tests in the same sandbox) in wall and container CPU time, and
 * ssr / bare, each repetition and the median; with two builds, after's overhead over before's
 * per repetition (the builds alternate within a repetition, so both see the same load).
 */
export function renderRunOverhead(samples: readonly OverheadSample[], builds: readonly string[]): string {
  const kinds = (['same', 'fresh'] as const).filter((where) => samples.some((s) => (s.where ?? 'same') === where));
  return kinds.map((where) => renderKind(samples.filter((s) => (s.where ?? 'same') === where), builds, HEADINGS[where])).join('');
}

function renderKind(samples: readonly OverheadSample[], builds: readonly string[], heading: string): string {
  const lines = [heading];
  const byBuild = new Map(builds.map((build) => [build, repFigures(samples.filter((s) => s.build === build))]));
  for (const [build, reps] of byBuild) {
    const cpu = reps.map((r) => r.overheadCpuMs);
    const cpuKnown = cpu.every((v) => v !== null);
    lines.push(
      `  ${build}`,
      `    overhead, wall : median ${ms(median(reps.map((r) => r.overheadWallMs)))} (each: ${each(reps.map((r) => r.overheadWallMs), ms)})`,
      `    ssr / bare, wall : median ${x(median(reps.map((r) => r.ratioWall)))} (each: ${each(reps.map((r) => r.ratioWall), x)})`,
      `    overhead, CPU  : median ${cpuKnown ? ms(median(cpu as number[])) : 'n/a'} (each: ${each(cpu, ms)})`,
      `    ssr / bare, CPU  : median ${cpuKnown ? x(median(reps.map((r) => r.ratioCpu!))) : 'n/a'} (each: ${each(reps.map((r) => r.ratioCpu), x)})`,
    );
  }
  if (builds.length === 2) {
    const [before, after] = builds.map((build) => byBuild.get(build)!) as [RepFigures[], RepFigures[]];
    const paired = before.map((b, i) => [b, after[i]] as const).filter((pair): pair is readonly [RepFigures, RepFigures] => pair[1] !== undefined);
    const wall = paired.map(([b, a]) => a.overheadWallMs / b.overheadWallMs);
    const cpu = paired.map(([b, a]) => (a.overheadCpuMs === null || b.overheadCpuMs === null ? null : a.overheadCpuMs / b.overheadCpuMs));
    lines.push(
      `  overhead ${builds[1]} / ${builds[0]}, wall : median ${x(median(wall))} (each: ${each(wall, x)})`,
      `  overhead ${builds[1]} / ${builds[0]}, CPU  : median ${cpu.every((v) => v !== null) ? x(median(cpu as number[])) : 'n/a'} (each: ${each(cpu, x)})`,
    );
  }
  return `${lines.join('\n')}\n`;
}
