import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadArtifactDir } from '../../artifact/load-artifact.js';
import type { BugArtifact } from '../../artifact/bug-artifact.js';
import { parseUnifiedDiff } from '../../code/unified-diff.js';
import { silentProgress } from '../../util/progress.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import { prepareTemplate } from '../../sandbox/sandbox-factory.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

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
}

/** The fixture artifact scripts/bench-validate validates by default. */
export const DEFAULT_BENCH_ARTIFACT = join(ROOT, 'test/fixtures/artifacts/valid-single-file');

/** `ssr validate` wall time vs the same test runs done bare, one after another; returns the printed table. */
export async function benchValidate(options: ValidateBenchOptions): Promise<string> {
  const template = await prepareTemplate(options.repo, 'docker', silentProgress);
  const artifactDir = resolve(options.artifactDir);
  const artifact = await loadArtifactDir(artifactDir);
  const states = ['original', 'original', 'buggy', 'weakened', ...parseUnifiedDiff(artifact.bugInject).touchedPaths.map((file) => `inverse:${file}`)];
  const compiled = join(ROOT, 'dist/src/cli/main.js');
  const cli = existsSync(compiled) ? [compiled] : ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];

  const bare: number[] = [];
  const validate: number[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    let started = Date.now();
    for (const state of states) await dockerRun(template.ref, bareStateScript(artifact, state));
    bare.push(Date.now() - started);
    started = Date.now();
    const { stdout } = await run(process.execPath, [...cli, 'validate', '--repo', options.repoArg, '--artifact', artifactDir, '--json', '--sandbox', 'docker'], { cwd: ROOT });
    validate.push(Date.now() - started);
    if (!(JSON.parse(stdout) as { valid: boolean }).valid) throw new Error('the benchmark artifact is not valid');
  }
  const [b, v] = [median(bare), median(validate)];
  return [
    `bench-validate: ${artifactDir} on ${template.ref}, ${states.length} test runs per validation, median of ${options.runs}`,
    `  bare docker runs, one after another : ${(b / 1000).toFixed(2)} s`,
    `  ssr validate (CLI, end to end)      : ${(v / 1000).toFixed(2)} s`,
    `  ratio validate / bare               : ${(v / b).toFixed(2)}  (goal <= 1.00)`,
    '',
  ].join('\n');
}
