import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { loadReposOption } from '../../cli/common-options.js';
import { positiveInt } from '../../util/flag-values.js';
import { stepMetricsSchema, type StepMetrics } from '../step-metrics.js';
import { runBenchSelfplay } from './run-bench-selfplay.js';

interface RepoFigures {
  repo: string;
  strategy: string;
  attempted: number;
  valid: number;
  rejections: Record<string, number>;
  solverAttempts: number;
  solved: number;
  injectMs: number;
  validateMs: number;
  wallMs: number;
}

function figures(repo: string, strategy: string, steps: StepMetrics[], wallMs: number): RepoFigures {
  const sum = (pick: (m: StepMetrics) => number): number => steps.reduce((total, m) => total + pick(m), 0);
  const rejections: Record<string, number> = {};
  for (const m of steps) for (const [check, n] of Object.entries(m.invalidByCheck)) rejections[check] = (rejections[check] ?? 0) + n;
  return {
    repo,
    strategy,
    attempted: sum((m) => m.valid) + Object.values(rejections).reduce((a, b) => a + b, 0),
    valid: sum((m) => m.valid),
    rejections,
    solverAttempts: sum((m) => m.solverAttempts),
    solved: sum((m) => m.solved),
    injectMs: sum((m) => m.stageMs.inject),
    validateMs: sum((m) => m.stageMs.validate),
    wallMs,
  };
}

const pct = (part: number, whole: number): string => (whole === 0 ? '   -' : `${Math.round((100 * part) / whole)}%`.padStart(4));

function render(rows: RepoFigures[]): string {
  const lines = ['repo        strategy  attempted  valid  yield  solve rate   s per valid bug  rejections by check'];
  for (const r of rows) {
    const perBug = r.valid === 0 ? '-' : (r.wallMs / r.valid / 1000).toFixed(1);
    const rejections = Object.entries(r.rejections).map(([check, n]) => `${check}:${n}`).join(' ') || '-';
    lines.push(
      `${r.repo.padEnd(11)} ${r.strategy.padEnd(9)} ${String(r.attempted).padStart(9)} ${String(r.valid).padStart(6)}  ${pct(r.valid, r.attempted)}  ` +
        `${`${r.solved}/${r.solverAttempts}`.padStart(6)} ${pct(r.solved, r.solverAttempts)}  ${perBug.padStart(15)}  ${rejections}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Entry of scripts/bench-procedural: the procedural policy's figures per repo and strategy — one
 * real `ssr selfplay` step each (no order-2 bugs), read back from its metrics.jsonl.
 */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-procedural')
    .option('--repo <id...>', 'repos to measure (default: every repo of repos.yaml)')
    .option('--strategies <list>', 'comma-separated injector strategies', 'removal,history,direct')
    .option('--episodes <n>', 'injections per repo and strategy', positiveInt('--episodes'), 4)
    .option('--attempts <n>', 'Solver attempts per valid bug', positiveInt('--attempts'), 2)
    .option('--seed <n>', 'run seed', '1')
    .parse(argv, { from: 'user' })
    .opts<{ repo?: string[]; strategies: string; episodes: number; attempts: number; seed: string }>();
  const repos = options.repo ?? (await loadReposOption(undefined))?.file.repos.map((r) => r.id) ?? ['pyledger'];
  const rows: RepoFigures[] = [];
  for (const repo of repos) {
    for (const strategy of options.strategies.split(',')) {
      const out = mkdtempSync(join(tmpdir(), `ssr-bench-procedural-${repo}-${strategy}-`));
      const wallMs = await runBenchSelfplay({ repo, strategy, episodes: options.episodes, attempts: options.attempts, seed: options.seed, out });
      const steps = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
      rows.push(figures(repo, strategy, steps, wallMs));
      process.stderr.write(`bench-procedural: ${repo} ${strategy} done (${out})\n`);
    }
  }
  process.stdout.write(render(rows));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-procedural: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
