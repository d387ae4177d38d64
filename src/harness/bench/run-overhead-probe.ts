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
 * (runTests). Each sample is one JSON line on stdout: wall ms on the host and CPU ms the
 * container spent. A fresh sandbox's start and removal are timed once too (validation pays them per state).
 */
async function main([buildDir, repoArg, artifactDir, pairsArg]: string[]): Promise<void> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(buildDir!, path)).href)) as T;
  const { resolveRepoOptions } = await load<{ resolveRepoOptions: (o: { repo: string }) => Promise<unknown> }>('src/cli/common-options.ts');
  const factory = await load<{ prepareTemplate: (...a: unknown[]) => Promise<unknown>; createProvider: (b: string) => { acquire: (t: unknown) => Promise<Sandbox> } }>('src/sandbox/sandbox-factory.ts');
  const { silentProgress } = await load<{ silentProgress: unknown }>('src/util/progress.ts');
  const { runTests } = await load<{ runTests: (s: Sandbox, o: Record<string, unknown>) => Promise<{ statuses: Record<string, string> }> }>('src/harness/run-tests.ts');
  const testScript = readFileSync(join(artifactDir!, 'test_script.sh'), 'utf8');
  const testParser = readFileSync(join(artifactDir!, 'test_parser.py'), 'utf8');
  const template = await factory.prepareTemplate(await resolveRepoOptions({ repo: repoArg! }), 'docker', silentProgress);
  const provider = factory.createProvider('docker');
  let started = performance.now();
  const sandbox = await provider.acquire(template);
  const acquireMs = performance.now() - started;
  const measure = async (fn: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number | null }> => {
    const cpu = containerCpuMs(sandbox.id);
    const start = performance.now();
    await fn();
    const wallMs = performance.now() - start;
    const after = containerCpuMs(sandbox.id);
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
