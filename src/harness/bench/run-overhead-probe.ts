import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { containerCpuMs } from '../../sandbox/bench/container-cpu.js';
import type { Sandbox } from '../../sandbox/sandbox.js';

/**
 * Child process of scripts/bench-validate's per-run section, one per build and repetition:
 * `run-overhead-probe.ts <build dir> <repo> <artifact dir> <pairs>`. It loads the harness of the
 * build it is given (its own src/, so two builds are compared on the same probe), takes one
 * sandbox of the repo and alternates, `pairs` times, a bare run of the artifact's test script (one
 * exec: `bash test_script.sh > log`) with ssr's guarded run of the same script and parser
 * (runTests); then as many pairs where each run is the first command of a fresh sandbox (`where:
 * 'fresh'`: validation runs every state so, and what a fresh container costs a run, such as
 * overlayfs copying up files whose owner changes, shows only there). Each sample is one JSON line
 * on stdout: wall ms on the host and CPU ms the container spent. A fresh sandbox's start and
 * removal are timed once too (validation pays them per state). `artifact dir` `-`: the repo's own
 * default script and parser; `repos file`: the repos.yaml that names the repo (optional).
 */
async function main([buildDir, repoArg, artifactDir, pairsArg, reposFile]: string[]): Promise<void> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(buildDir!, path)).href)) as T;
  const { resolveRepoOptions } = await load<{ resolveRepoOptions: (o: { repo: string; repos?: string }) => Promise<{ testRunner?: unknown }> }>('src/cli/common-options.ts');
  const factory = await load<{ prepareTemplate: (...a: unknown[]) => Promise<unknown>; createProvider: (b: string) => { acquire: (t: unknown) => Promise<Sandbox> } }>('src/sandbox/sandbox-factory.ts');
  const { silentProgress } = await load<{ silentProgress: unknown }>('src/util/progress.ts');
  const { runTests } = await load<{ runTests: (s: Sandbox, o: Record<string, unknown>) => Promise<{ statuses: Record<string, string> }> }>('src/harness/run-tests.ts');
  const repo = await resolveRepoOptions({ repo: repoArg!, ...(reposFile ? { repos: reposFile } : {}) });
  const { repoTestFiles } = await load<{ repoTestFiles: (r: unknown) => { testScript: string; testParser: string } }>('src/harness/repo-test-files.ts');
  const { testScript, testParser } =
    artifactDir === '-' ? repoTestFiles(repo) : { testScript: readFileSync(join(artifactDir!, 'test_script.sh'), 'utf8'), testParser: readFileSync(join(artifactDir!, 'test_parser.py'), 'utf8') };
  const template = await factory.prepareTemplate(repo, 'docker', silentProgress);
  const provider = factory.createProvider('docker');
  let started = performance.now();
  const sandbox = await provider.acquire(template);
  const acquireMs = performance.now() - started;
  const measure = async (fn: () => Promise<unknown>, where = sandbox): Promise<{ wallMs: number; cpuMs: number | null }> => {
    const cpu = containerCpuMs(where.id);
    const start = performance.now();
    await fn();
    const wallMs = performance.now() - start;
    const after = containerCpuMs(where.id);
    return { wallMs, cpuMs: cpu === undefined || after === undefined ? null : after - cpu };
  };
  try {
    await sandbox.writeFile('/tmp/bare_script.sh', testScript);
    for (let i = 0; i < Number(pairsArg); i++) {
      const bare = await measure(() => sandbox.exec('bash /tmp/bare_script.sh > /tmp/bare.log 2>&1', { cwd: '/repo', timeoutMs: 600_000 }));
      let tests = 0;
      const ssr = await measure(async () => {
        tests = Object.keys((await runTests(sandbox, { testScript, testParser, timeoutMs: 600_000 })).statuses).length;
      });
      if (tests === 0) throw new Error(`ssr's run of ${artifactDir} found no tests: not a run to measure`);
      process.stdout.write(`${JSON.stringify({ bare, ssr, tests })}\n`);
    }
    const inFresh = async <T>(fn: (fresh: Sandbox) => Promise<T>): Promise<T> => {
      const fresh = await provider.acquire(template);
      try {
        return await fn(fresh);
      } finally {
        await fresh.dispose();
      }
    };
    for (let i = 0; i < Number(pairsArg); i++) {
      // The script goes in by putArchive, which changes nothing in /repo; the bare run is then the sandbox's first command.
      const bare = await inFresh(async (fresh) => {
        await fresh.writeFile('/tmp/bare_script.sh', testScript);
        return measure(() => fresh.exec('bash /tmp/bare_script.sh > /tmp/bare.log 2>&1', { cwd: '/repo', timeoutMs: 600_000 }), fresh);
      });
      const ssr = await inFresh((fresh) => measure(() => runTests(fresh, { testScript, testParser, timeoutMs: 600_000 }), fresh));
      process.stdout.write(`${JSON.stringify({ bare, ssr, where: 'fresh' })}\n`);
    }
  } finally {
    started = performance.now();
    await sandbox.dispose();
    process.stdout.write(`${JSON.stringify({ acquireMs, disposeMs: performance.now() - started })}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`run-overhead-probe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
