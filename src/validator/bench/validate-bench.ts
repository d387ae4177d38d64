import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadArtifactDir } from '../../artifact/load-artifact.js';
import type { BugArtifact } from '../../artifact/bug-artifact.js';
import { parseUnifiedDiff } from '../../code/unified-diff.js';
import { silentProgress } from '../../util/progress.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import { prepareTemplate } from '../../sandbox/sandbox-factory.js';
import type { BenchBuild } from '../../util/bench-builds.js';
import { renderRunOverhead, type OverheadSample } from '../../harness/bench/run-overhead-figures.js';
import { median } from '../../util/median.js';
import { watchSandboxCreations } from './sandbox-creations.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** The bash a bare run feeds to `docker run -i`: prepare one state, run the script, parse its log. */
function bareStateScript(artifact: BugArtifact, state: string): string {
  const lines = [
    'set -e',
    'cd /repo',
    `echo ${b64(artifact.testScript)} | base64 -d > /tmp/test_script.sh`,
    `echo ${b64(artifact.testParser)} | base64 -d > /tmp/test_parser.py`,
  ];
  if (state !== 'original') lines.push(`echo ${b64(artifact.bugInject)} | base64 -d > /tmp/bug.diff`, 'git apply /tmp/bug.diff');
  if (state === 'weakened') lines.push(`echo ${b64(artifact.testWeaken)} | base64 -d > /tmp/weaken.diff`, 'git apply /tmp/weaken.diff');
  if (state.startsWith('inverse:')) lines.push(`git checkout HEAD -- '${state.slice('inverse:'.length)}'`);
  lines.push('set +e', 'bash /tmp/test_script.sh > /tmp/test.log 2>&1', 'python3 /tmp/test_parser.py < /tmp/test.log > /dev/null');
  return lines.join('\n');
}

function dockerRun(image: string, script: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('docker', ['run', '--rm', '-i', '--network', 'none', image, 'bash', '-s'], { stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`bare docker run exited ${code}`))));
    child.stdin.end(script);
  });
}

/** What scripts/bench-validate measures: `repoArg` as given on the command line, `repo` resolved from it. */
export interface ValidateBenchOptions {
  runs: number;
  repoArg: string;
  repo: ResolvedRepo;
  artifactDir: string;
  /** Artifacts validated together (`--artifact-list`), as the bugs of one run are; empty: skip that part. */
  listDirs: string[];
  /** The builds compared, alternated in each repetition (one: this checkout). */
  builds: BenchBuild[];
  /** Bare/ssr pairs of the per-run section, per build and repetition (0: skip that section). */
  overheadPairs: number;
  /** false: the per-run section alone (no `ssr validate` runs). */
  validate?: boolean;
  /** The repos.yaml that names `repoArg` (`--repos`), when not the default one. */
  reposFile?: string;
}

/** The fixture artifact scripts/bench-validate validates by default. */
export const DEFAULT_BENCH_ARTIFACT = join(ROOT, 'test/fixtures/artifacts/valid-single-file');
/** The default list: the valid fixtures, one-file and two-file bugs over the same test script. */
export const DEFAULT_BENCH_LIST = ['valid-single-file', 'valid-two-files'].map((name) => join(ROOT, 'test/fixtures/artifacts', name));

/** Every run the sequential reference path makes on a valid artifact: O twice, B, W, one inverse per bug file. */
function statesOf(artifact: BugArtifact): string[] {
  return ['original', 'original', 'buggy', 'weakened', ...parseUnifiedDiff(artifact.bugInject).touchedPaths.map((file) => `inverse:${file}`)];
}

interface Measured {
  label: string;
  build: string;
  runs: number;
  bare: number;
  validate: number;
  /** validate / bare of each repetition (bare and validate measured in the same repetition). */
  ratios: number[];
  /** Sandbox containers each `ssr validate` of the repetitions created (its engine's events). */
  created: number[];
}

const ratiosOf = (validate: number[], bare: number[]): number[] => validate.map((ms, i) => ms / bare[i]!);

/** The CLI of a build: this checkout's compiled one when there is one, else its sources through tsx. */
function cliOf(build: BenchBuild): string[] {
  const compiled = join(build.dir, 'dist/src/cli/main.js');
  return build.dir === ROOT && existsSync(compiled) ? [compiled] : ['--import', 'tsx', join(build.dir, 'src/cli/main.ts')];
}

/** The per-run probe (run-overhead-probe.ts) on one build: its samples, labelled. */
async function probeRuns(build: BenchBuild, rep: number, options: ValidateBenchOptions): Promise<OverheadSample[]> {
  const probe = join(ROOT, 'src/harness/bench/run-overhead-probe.ts');
  const artifact = options.artifactDir === '-' ? '-' : resolve(options.artifactDir);
  const args = [probe, build.dir, options.repoArg, artifact, String(options.overheadPairs), ...(options.reposFile ? [resolve(options.reposFile)] : [])];
  const { stdout } = await run(process.execPath, ['--import', 'tsx', ...args], { cwd: build.dir, maxBuffer: 16 * 1024 * 1024 });
  const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Partial<OverheadSample>);
  return lines.filter((line) => line.bare !== undefined).map((line) => ({ build: build.label, rep, bare: line.bare!, ssr: line.ssr!, where: line.where ?? 'same' }));
}

/**
 * `ssr validate` wall time vs the same test runs done bare, one after another, in the same run,
 * for each build (alternated: the order flips every repetition); then ssr's overhead per test run
 * in one sandbox (run-overhead-figures.ts). Returns the printed table.
 */
export async function benchValidate(options: ValidateBenchOptions): Promise<string> {
  const template = await prepareTemplate(options.repo, 'docker', silentProgress);
  const validateArgs = ['validate', '--repo', options.repoArg, ...(options.reposFile ? ['--repos', resolve(options.reposFile)] : []), '--json', '--sandbox', 'docker'];
  if (options.validate !== false && options.artifactDir === '-') throw new Error('--artifact -: the repo\'s own script has no artifact to validate; add --no-validate');

  const single = resolve(options.artifactDir);
  const singleArtifact = options.validate === false ? undefined! : await loadArtifactDir(single);
  const list = options.validate === false ? [] : await Promise.all(options.listDirs.map(async (dir) => ({ dir: resolve(dir), artifact: await loadArtifactDir(resolve(dir)) })));
  const listFile = join(await mkdtemp(join(tmpdir(), 'ssr-bench-validate-')), 'artifacts.txt');
  await writeFile(listFile, `${list.map((entry) => entry.dir).join('\n')}\n`);

  const bare = async (artifacts: BugArtifact[]): Promise<number> => {
    const started = Date.now();
    for (const artifact of artifacts) for (const state of statesOf(artifact)) await dockerRun(template.ref, bareStateScript(artifact, state));
    return Date.now() - started;
  };
  const creations = await watchSandboxCreations();
  const created = new Map<string, number[]>();
  const validate = async (build: BenchBuild, args: string[], expected: number): Promise<number> => {
    const started = Date.now();
    const pending = run(process.execPath, [...cliOf(build), ...validateArgs, ...args], { cwd: build.dir });
    const { stdout } = await pending;
    const elapsed = Date.now() - started;
    const key = `${build.label} ${expected}`;
    created.set(key, [...(created.get(key) ?? []), creations.of(pending.child.pid!)]);
    const results = stdout.trim().split('\n').map((line) => JSON.parse(line) as { valid: boolean });
    if (results.length !== expected || !results.every((result) => result.valid)) throw new Error(`the benchmark artifacts are not all valid: ${stdout.slice(0, 500)}`);
    return elapsed;
  };

  const labels = options.builds.map((build) => build.label);
  const samples = { singleBare: [] as number[], listBare: [] as number[], singleValidate: new Map(labels.map((l) => [l, [] as number[]])), listValidate: new Map(labels.map((l) => [l, [] as number[]])) };
  const validateRep = async (order: BenchBuild[]): Promise<void> => {
    samples.singleBare.push(await bare([singleArtifact]));
    for (const build of order) samples.singleValidate.get(build.label)!.push(await validate(build, ['--artifact', single], 1));
    if (list.length === 0) return;
    samples.listBare.push(await bare(list.map((entry) => entry.artifact)));
    for (const build of order) samples.listValidate.get(build.label)!.push(await validate(build, ['--artifact-list', listFile], list.length));
  };
  const overhead: OverheadSample[] = [];
  const loads: number[] = [loadavg()[0]!];
  for (let i = 0; i < options.runs; i += 1) {
    const order = i % 2 === 0 ? options.builds : [...options.builds].reverse();
    if (options.validate !== false) await validateRep(order);
    if (options.overheadPairs > 0) for (const build of order) overhead.push(...(await probeRuns(build, i + 1, options)));
    loads.push(loadavg()[0]!);
  }
  creations.stop();
  const measured: Measured[] = [];
  for (const label of options.validate === false ? [] : labels) {
    const validated = samples.singleValidate.get(label)!;
    measured.push({ label: `one artifact (${single})`, build: label, runs: statesOf(singleArtifact).length, bare: median(samples.singleBare), validate: median(validated), ratios: ratiosOf(validated, samples.singleBare), created: created.get(`${label} 1`) ?? [] });
    if (list.length > 0) {
      const runs = list.reduce((sum, entry) => sum + statesOf(entry.artifact).length, 0);
      const listed = samples.listValidate.get(label)!;
      measured.push({ label: `--artifact-list of ${list.length} (${list.map((entry) => basename(entry.dir)).join(', ')})`, build: label, runs, bare: median(samples.listBare), validate: median(listed), ratios: ratiosOf(listed, samples.listBare), created: created.get(`${label} ${list.length}`) ?? [] });
    }
  }
  const lines = [`bench-validate on ${template.ref}, ${cpus().length} cores, median of ${options.runs}; 1-min load average seen: ${loads.map((l) => l.toFixed(1)).join(' -> ')}`];
  for (const m of measured) {
    lines.push(
      `${m.label}, build ${m.build}: ${m.runs} test runs when each is run alone`,
      `  bare docker runs, one after another : ${(m.bare / 1000).toFixed(2)} s`,
      `  ssr validate (CLI, end to end)      : ${(m.validate / 1000).toFixed(2)} s`,
      `  ratio validate / bare               : ${(m.validate / m.bare).toFixed(2)}  (goal <= 0.50)`,
      `  ratio of each repetition            : median ${median(m.ratios).toFixed(2)}, each ${m.ratios.map((r) => r.toFixed(2)).join(', ')}`,
      `  sandboxes ssr validate created      : each repetition ${m.created.join(', ')}`,
    );
  }
  if (overhead.length > 0) lines.push(renderRunOverhead(overhead, labels).trimEnd());
  return `${lines.join('\n')}\n`;
}
