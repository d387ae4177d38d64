import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { loadCatalogue } from '../../catalogue/load-catalogue.js';
import { materialiseEntry } from '../../catalogue/materialise-entry.js';
import { catalogueRepoEntry, writeCatalogueRepos } from '../../catalogue/write-catalogue-repos.js';
import { loadReposFile } from '../../config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../../config/resolve-repo.js';
import { createProvider, prepareTemplate } from '../../sandbox/sandbox-factory.js';
import { silentProgress } from '../../util/progress.js';
import { ssrPath } from '../../util/ssr-home.js';
import { parseJsRunner, readJsTestFiles, type JsRunner } from '../js-test-files.js';
import { runTests, type TestRun } from '../run-tests.js';

/**
 * Honest runs under the JS in-process checks (issue 23): for each JS repo, the clean suite run with
 * the runner's default script as it is now (hardened) and as it was at a baseline git ref, in
 * alternation in one process, on the same image. Prints whether the status maps are identical and
 * the guarded / baseline wall-time ratio (medians).
 * Usage: scripts/bench-js-hardening [--repos minimist,qs,numeral] [--repos-yaml-ids tskit] [--runs 2] [--baseline main]
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SCRIPTS: Record<JsRunner, string> = { jest: 'jest.sh', vitest: 'vitest.sh', mocha: 'mocha.sh', 'node-test': 'node-test.sh', tape: 'tap-files.sh', 'node-tap': 'tap-files.sh' };

function flag(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
}

async function catalogueRepo(id: string): Promise<ResolvedRepo> {
  const catalogue = join(ROOT, 'catalogue');
  const entry = loadCatalogue(catalogue).find((candidate) => candidate.id === id);
  if (!entry) throw new Error(`--repos: no catalogue entry "${id}"`);
  const dest = ssrPath('catalogue');
  const built = await materialiseEntry(entry, { dest: join(dest, 'repos'), debCache: join(dest, 'debs'), npmCache: join(dest, 'npm'), npmLocks: join(catalogue, 'npm-locks') });
  const reposFile = join(dest, `bench-js-hardening-${id}.yaml`);
  await writeCatalogueRepos(reposFile, [catalogueRepoEntry(entry, built)]);
  return resolveRepo(id, await loadReposFile(reposFile));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function bench(repo: ResolvedRepo, runs: number, baselineRef: string): Promise<string> {
  const runner = parseJsRunner(String(repo.testRunner));
  const now = readJsTestFiles(runner);
  const before = { testScript: execFileSync('git', ['-C', ROOT, 'show', `${baselineRef}:src/harness/defaults/js/${SCRIPTS[runner]}`], { encoding: 'utf8' }), testParser: now.testParser };
  const template = await prepareTemplate(repo, 'docker', silentProgress);
  const provider = createProvider('docker');
  const once = async (files: { testScript: string; testParser: string }): Promise<TestRun> => {
    const sandbox = await provider.acquire(template);
    try {
      return await runTests(sandbox, { ...files, timeoutMs: repo.limits.test_timeout_s * 1000 });
    } finally {
      await sandbox.dispose();
    }
  };
  const times = { guarded: [] as number[], baseline: [] as number[] };
  const maps: string[] = [];
  for (let index = 0; index < runs; index++) {
    const baseline = await once(before);
    const guarded = await once(now);
    times.baseline.push(baseline.durationMs);
    times.guarded.push(guarded.durationMs);
    maps.push(JSON.stringify(baseline.statuses), JSON.stringify(guarded.statuses));
  }
  const first = JSON.parse(maps[0]!) as Record<string, string>;
  const passed = Object.values(first).filter((status) => status === 'passed').length;
  const identical = maps.every((map) => map === maps[0]);
  const ratio = median(times.guarded) / median(times.baseline);
  return `| ${repo.id} | ${runner} | ${Object.keys(first).length} (${passed} passed) | ${identical ? 'identical' : 'DIFFERENT'} | ${(median(times.baseline) / 1000).toFixed(1)} | ${(median(times.guarded) / 1000).toFixed(1)} | ${ratio.toFixed(2)} |\n`;
}

async function main(args: string[]): Promise<void> {
  const catalogueIds = flag(args, '--repos', 'minimist,qs,path-browserify,numeral').split(',').filter(Boolean);
  const yamlIds = flag(args, '--repos-yaml-ids', 'tskit').split(',').filter(Boolean);
  const runs = Number(flag(args, '--runs', '2'));
  const baselineRef = flag(args, '--baseline', 'main');
  process.stdout.write(`| repo | runner | tests | status maps (${runs} runs each) | baseline s | guarded s | ratio |\n| --- | --- | --- | --- | --- | --- | --- |\n`);
  const repos: Array<() => Promise<ResolvedRepo>> = [
    ...catalogueIds.map((id) => () => catalogueRepo(id)),
    ...yamlIds.map((id) => async () => resolveRepo(id, await loadReposFile(join(ROOT, 'repos.yaml')))),
  ];
  for (const load of repos) {
    try {
      process.stdout.write(await bench(await load(), runs, baselineRef));
    } catch (error) {
      process.stdout.write(`| (failed) | | | ${(error as Error).message.slice(0, 200)} | | | |\n`);
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-js-hardening: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
