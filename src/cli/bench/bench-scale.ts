import { Command } from 'commander';
import { benchPlacement, type PlacementFigures } from '../../sandbox/engines/bench/placement-bench.js';
import { benchEngines, type ScaleFigures } from '../../selfplay/bench/scale-bench.js';
import { positiveInt } from '../common-options.js';

interface Options {
  hosts?: string;
  repo: string;
  episodes: number;
  attempts: number;
  slotsPerHost: number;
  placementHosts: number;
  placementEpisodes: number;
  rounds: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median round of the placement benchmark on `hosts` simulated engines. */
async function placementMedian(hosts: number, episodes: number, rounds: number): Promise<PlacementFigures> {
  const figures: PlacementFigures[] = [];
  for (let round = 0; round < rounds; round++) figures.push(await benchPlacement(hosts, episodes, round + 1));
  const us = median(figures.map((figure) => figure.usPerPlacement));
  return figures.find((figure) => figure.usPerPlacement === us)!;
}

function renderScale(one: ScaleFigures, two: ScaleFigures): string {
  const row = (label: string, f: ScaleFigures): string =>
    `${label.padEnd(12)} ${String(f.episodes).padStart(8)} ${String(f.valid).padStart(6)} ${(f.samplingMs / 1000).toFixed(1).padStart(10)} ${f.episodesPerHour.toFixed(1).padStart(10)}`;
  return [
    'engines      episodes  valid  sampling s  episodes/h',
    row('1 engine', one),
    row('2 engines', two),
    `ratio 2 engines / 1 engine: ${(two.episodesPerHour / one.episodesPerHour).toFixed(2)}x  (same run, same repo, seed and slots per engine)`,
  ].join('\n');
}

function renderPlacement(small: PlacementFigures, large: PlacementFigures): string {
  const row = (f: PlacementFigures): string =>
    `${String(f.hosts).padStart(6)} ${String(f.slots).padStart(6)} ${String(f.episodes).padStart(9)} ${String(f.waited).padStart(7)} ${f.usPerPlacement.toFixed(2).padStart(13)}`;
  return [
    ' hosts  slots  episodes  waited  µs/placement',
    row(small),
    row(large),
    `ratio ${large.hosts} hosts / ${small.hosts} hosts: ${(large.usPerPlacement / small.usPerPlacement).toFixed(2)}x per placement (medians of the same run)`,
  ].join('\n');
}

/**
 * Entry of scripts/bench-scale: episodes per hour on one engine against two (real self-play,
 * same run), and the placement scheduler's own cost per placement on a simulated fleet
 * against a small one.
 */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-scale')
    .option('--hosts <a,b>', 'the two engines (Docker URLs); without it only the placement benchmark runs')
    .option('--repo <id|path>', 'repo to run self-play on', 'pyledger')
    .option('--episodes <n>', 'order-1 episodes per run', positiveInt('--episodes'), 4)
    .option('--attempts <n>', 'Solver attempts per valid bug', positiveInt('--attempts'), 2)
    .option('--slots-per-host <n>', 'episodes each engine runs at once', positiveInt('--slots-per-host'), 2)
    .option('--placement-hosts <n>', 'simulated engines', positiveInt('--placement-hosts'), 1000)
    .option('--placement-episodes <n>', 'queued episodes placed on them', positiveInt('--placement-episodes'), 10_000)
    .option('--rounds <n>', 'placement rounds (the median is shown)', positiveInt('--rounds'), 5)
    .parse(argv, { from: 'user' })
    .opts<Options>();
  // Warm the JIT first, so neither measured fleet pays for compiling the scheduler.
  await benchPlacement(100, 1000, 99);
  const small = await placementMedian(10, options.placementEpisodes, options.rounds);
  const large = await placementMedian(options.placementHosts, options.placementEpisodes, options.rounds);
  process.stdout.write(`placement (simulated engines, 1-16 slots each):\n${renderPlacement(small, large)}\n`);
  if (options.hosts === undefined) return;
  const hosts = options.hosts.split(',').map((host) => host.trim()).filter((host) => host !== '');
  if (hosts.length !== 2) throw new Error(`--hosts: expected two engine URLs separated by a comma, got "${options.hosts}"`);
  const run = { repo: options.repo, episodes: options.episodes, attempts: options.attempts, slotsPerHost: options.slotsPerHost, seed: 1 };
  const one = await benchEngines([hosts[0]!], run);
  process.stderr.write(`bench-scale: 1 engine done\n`);
  const two = await benchEngines(hosts, run);
  process.stdout.write(`\nself-play throughput (${options.repo}, procedural policy, ${options.episodes} episodes, ${options.slotsPerHost} slots per engine):\n${renderScale(one, two)}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-scale: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
