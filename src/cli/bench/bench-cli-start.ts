import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { EngineRequestLog, type EngineRequest } from '../../sandbox/bench/engine-request-log.js';
import { parseBuildRevs, prepareBuilds, removeBuilds, type BenchBuild } from '../../util/bench-builds.js';
import { positiveInt } from '../../util/flag-values.js';

/** One start of the compiled CLI: wall time, the process's CPU (user + sys), and at the engine's first create. */
interface Start {
  wallMs: number;
  cpuS: number;
  stdout: string;
  firstCreateMs?: number;
  firstCreateCpuS?: number;
}

/** CPU seconds so far of the node process `bash` started (its one child). */
function childCpu(bashPid: number): number {
  const child = readFileSync(`/proc/${bashPid}/task/${bashPid}/children`, 'utf8').trim().split(' ')[0];
  const fields = readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `node dist/src/cli/main.js args` in `dir`; bash's `times` gives the CPU of the finished child. */
function start(dir: string, args: string[], env: NodeJS.ProcessEnv, log?: EngineRequestLog): Promise<Start> {
  return new Promise((done, fail) => {
    const began = Date.now();
    const child = spawn('bash', ['-c', '"$@"; rc=$?; times >&2; exit $rc', 'bash', process.execPath, 'dist/src/cli/main.js', ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const result: Partial<Start> = {};
    if (log) {
      log.onFirstCreate = () => {
        result.firstCreateMs = Date.now() - began;
        result.firstCreateCpuS = childCpu(child.pid!);
      };
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (bytes: Buffer) => (stdout += bytes.toString()));
    child.stderr.on('data', (bytes: Buffer) => (stderr += bytes.toString()));
    child.on('error', fail);
    child.on('close', () => {
      // `times`' second line: the children's user and system time, `0m0.520s 0m0.090s`.
      const seconds = (stderr.trim().split('\n').at(-1) ?? '').match(/(\d+)m([\d.]+)s/g)?.map((part) => Number(part.split('m')[0]) * 60 + Number(part.split('m')[1]!.slice(0, -1)));
      if (seconds?.length !== 2) return fail(new Error(`no CPU times from ${args.join(' ')}:\n${stderr.slice(-2000)}`));
      done({ ...result, wallMs: Date.now() - began, cpuS: seconds[0]! + seconds[1]!, stdout });
    });
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Entry of scripts/bench-cli-start: `ssr validate`'s start-up, to its first sandbox, and its engine requests. */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-cli-start')
    .option('--runs <n>', 'repetitions (median reported)', positiveInt('--runs'), 5)
    .option('--repo <id>', 'repo of the artifact', 'pyledger')
    .option('--artifact <dir>', 'artifact to validate', 'test/fixtures/artifacts/valid-single-file')
    .option('--builds <revs>', 'two git revs (before,after), each built (tsc) in its own worktree, alternated; default: this checkout (built)')
    .option('--engine-socket <path>', "the Docker engine's socket", '/var/run/docker.sock')
    .parse(argv, { from: 'user' })
    .opts<{ runs: number; repo: string; artifact: string; builds?: string; engineSocket: string }>();
  const builds = prepareBuilds(parseBuildRevs(options.builds), join(tmpdir(), `ssr-bench-cli-start-${process.pid}`));
  const log = new EngineRequestLog(options.engineSocket);
  await log.listen();
  try {
    for (const build of builds) {
      if (options.builds) execFileSync(join(build.dir, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: build.dir, stdio: 'inherit' });
      if (!existsSync(join(build.dir, 'dist', 'src', 'cli', 'main.js'))) throw new Error(`${build.dir}: no dist/; run npm run build first`);
    }
    const artifact = resolve(options.artifact);
    const env = { ...process.env, DOCKER_HOST: `unix://${log.socket}` };
    const rows = new Map<BenchBuild, { help: Start[]; validate: Start[]; requests: EngineRequest[][] }>(builds.map((build) => [build, { help: [], validate: [], requests: [] }]));
    for (let run = 0; run < options.runs; run++) {
      for (const build of builds) {
        const row = rows.get(build)!;
        const help = await start(build.dir, ['validate', '--help'], env);
        log.requests = [];
        const validation = await start(build.dir, ['validate', '--repo', options.repo, '--artifact', artifact, '--json', '--sandbox', 'docker'], env, log);
        if ((JSON.parse(validation.stdout) as { valid?: boolean }).valid !== true) throw new Error(`${build.label}: the artifact was not judged valid: ${validation.stdout.slice(0, 500)}`);
        row.help.push(help);
        row.validate.push(validation);
        row.requests.push(log.requests);
        process.stderr.write(`run ${run + 1} ${build.label} load ${loadavg()[0]!.toFixed(1)}: help ${help.wallMs} ms ${help.cpuS.toFixed(2)} s CPU; first create ${validation.firstCreateMs} ms ${validation.firstCreateCpuS?.toFixed(2)} s CPU; validation ${validation.wallMs} ms ${validation.cpuS.toFixed(2)} s CPU; ${log.requests.length} engine requests\n`);
      }
    }
    const lines = ['| build | `validate --help` wall, CPU | to first create, wall, CPU | whole validation, wall, CPU | engine requests | before the first create |', '| --- | --- | --- | --- | --- | --- |'];
    for (const [build, row] of rows) {
      // The last repetition's: the first can include an image build or another process's orphans.
      const last = row.requests.at(-1)!;
      const before = last.slice(0, last.findIndex((request) => request.kind === 'POST /containers/create')).map((request) => request.kind);
      lines.push(`| ${build.label} | ${median(row.help.map((s) => s.wallMs))} ms, ${median(row.help.map((s) => s.cpuS)).toFixed(2)} s | ${median(row.validate.map((s) => s.firstCreateMs ?? NaN))} ms, ${median(row.validate.map((s) => s.firstCreateCpuS ?? NaN)).toFixed(2)} s | ${median(row.validate.map((s) => s.wallMs))} ms, ${median(row.validate.map((s) => s.cpuS)).toFixed(2)} s | ${median(row.requests.map((list) => list.length))} | ${before.join(', ')} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    log.close();
    removeBuilds(builds);
  }
}

await main(process.argv.slice(2));
