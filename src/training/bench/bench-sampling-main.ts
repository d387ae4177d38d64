import { existsSync, readFileSync } from 'node:fs';
import { Command } from 'commander';
import { positiveInt } from '../../util/flag-values.js';
import { TokensPolicy } from '../../policy/tokens-policy.js';
import { runEpisodeStream, type StreamResult, type StreamShape } from './episode-stream.js';
import { FAST_TINY_CONFIG, startSamplingService } from './sampling-service.js';

interface Options {
  streams: number;
  turns: number;
  maxTokens: number;
  promptChars: number;
  toolChars: number;
  threads: number;
  batchWindowMs?: string;
  baseUrl?: string;
  python: string;
  modelConfig: string;
  json?: boolean;
}

/** CPU seconds a process has used (user + system), from /proc; null where there is none. */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return null;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Wall time and, for a service started here, its CPU time: on a shared machine the wall clock moves with others' load, the CPU time much less. */
async function timed(
  pid: number | undefined,
  run: () => Promise<StreamResult[]>,
): Promise<{ seconds: number; cpuSeconds: number | null; clientCpuSeconds: number; results: StreamResult[] }> {
  const cpu = cpuSeconds(pid);
  const client = process.cpuUsage();
  const started = performance.now();
  const results = await run();
  const after = cpuSeconds(pid);
  const used = process.cpuUsage(client);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: cpu === null || after === null ? null : after - cpu,
    clientCpuSeconds: (used.user + used.system) / 1e6,
    results,
  };
}

/** Entry of scripts/bench-sampling: N episode-shaped request streams one after another vs all at once, in one run. */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-sampling')
    .option('--streams <n>', 'episode-shaped request streams', positiveInt('--streams'), 8)
    .option('--turns <n>', 'turns per stream', positiveInt('--turns'), 4)
    .option('--max-tokens <n>', 'completion cap per turn', positiveInt('--max-tokens'), 96)
    .option('--prompt-chars <n>', 'characters of the first prompt (byte tokens on the tiny model)', positiveInt('--prompt-chars'), 200)
    .option('--tool-chars <n>', 'characters of the tool result added each turn', positiveInt('--tool-chars'), 100)
    .option('--threads <n>', 'torch CPU threads of the service it starts', positiveInt('--threads'), 1)
    .option('--batch-window-ms <ms>', "the started service's --batch-window-ms (its default: 0)")
    .option('--base-url <url>', 'measure this running server instead of starting the tiny trainer service')
    .option('--python <path>', 'interpreter with torch for the service', '/usr/bin/python3')
    .option('--model-config <json>', 'TinyConfig fields of the service it starts (default: the integration tests\' fast tiny model)', FAST_TINY_CONFIG)
    .option('--json', 'print the figures as JSON')
    .parse(argv, { from: 'user' })
    .opts<Options>();
  const shape: StreamShape = { turns: options.turns, maxTokens: options.maxTokens, promptChars: options.promptChars, toolChars: options.toolChars };
  const args = ['--threads', String(options.threads), '--model-config', options.modelConfig, ...(options.batchWindowMs ? ['--batch-window-ms', options.batchWindowMs] : [])];
  const service = options.baseUrl === undefined ? await startSamplingService(options.python, args) : undefined;
  const baseUrl = options.baseUrl ?? service!.url;
  try {
    const policy = new TokensPolicy({ baseUrl, env: {}, maxRetries: 0 });
    await runEpisodeStream(policy, -1, { ...shape, turns: 1 }); // warm-up: first-call costs out of both timings
    // Distinct streams in each phase (another task text and seeds, the same system prompt), as
    // distinct episodes are: with the same prompts, the later phase would find whole prompts in the
    // service's prefix cache. So the ratio is of throughput (tokens/s), the phases' tokens differing.
    const serialStreams = Array.from({ length: options.streams }, (_, i) => i);
    const concurrentStreams = serialStreams.map((i) => i + options.streams);
    const pid = service?.child.pid;
    const serial = await timed(pid, async () => {
      const results: StreamResult[] = [];
      for (const i of serialStreams) results.push(await runEpisodeStream(policy, i, shape));
      return results;
    });
    const concurrent = await timed(pid, () => Promise.all(concurrentStreams.map((i) => runEpisodeStream(policy, i, shape))));
    // Untimed: two of the concurrent streams again, alone, must sample exactly what they sampled beside the others.
    const checked = concurrentStreams.slice(0, 2);
    const alone: StreamResult[] = [];
    for (const i of checked) alone.push(await runEpisodeStream(policy, i, shape));
    const same = JSON.stringify(alone.map((r) => r.completions)) === JSON.stringify(concurrent.results.slice(0, checked.length).map((r) => r.completions));
    const serialTokens = serial.results.reduce((sum, r) => sum + r.completionTokens, 0);
    const concurrentTokens = concurrent.results.reduce((sum, r) => sum + r.completionTokens, 0);
    const perToken = (seconds: number | null, tokens: number): number | null => (seconds === null ? null : seconds / tokens);
    const serialCpu = perToken(serial.cpuSeconds, serialTokens);
    const concurrentCpu = perToken(concurrent.cpuSeconds, concurrentTokens);
    const health = (await (await fetch(`${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/health`)).json()) as { sampling?: unknown };
    const figures = {
      streams: options.streams, shape, serialTokens, concurrentTokens, serialSeconds: serial.seconds, concurrentSeconds: concurrent.seconds,
      speedup: concurrentTokens / concurrent.seconds / (serialTokens / serial.seconds), serialCpuSeconds: serial.cpuSeconds,
      concurrentCpuSeconds: concurrent.cpuSeconds, serialClientCpuSeconds: serial.clientCpuSeconds, concurrentClientCpuSeconds: concurrent.clientCpuSeconds,
      cpuRatio: serialCpu !== null && concurrentCpu ? serialCpu / concurrentCpu : null,
      identicalCompletions: same, serverSampling: health.sampling ?? null,
    };
    const cpu = (seconds: number | null, client: number): string =>
      `${seconds === null ? '' : `, service CPU ${seconds.toFixed(2)} s`}, client CPU ${client.toFixed(2)} s`;
    const phase = (name: string, seconds: number, tokens: number, cpuSeconds: number | null, client: number): string =>
      `  ${name.padEnd(10)}  ${seconds.toFixed(2)} s  (${tokens} tokens, ${(tokens / seconds).toFixed(1)} tokens/s${cpu(cpuSeconds, client)})\n`;
    process.stdout.write(
      options.json
        ? `${JSON.stringify(figures, null, 2)}\n`
        : `bench-sampling: ${options.streams} streams x ${shape.turns} turns (≤${shape.maxTokens} tokens each) one by one, then ${options.streams} others at once, against ${baseUrl}\n` +
            phase('serial', serial.seconds, serialTokens, serial.cpuSeconds, serial.clientCpuSeconds) +
            phase('concurrent', concurrent.seconds, concurrentTokens, concurrent.cpuSeconds, concurrent.clientCpuSeconds) +
            `  concurrent / serial: ${figures.speedup.toFixed(2)}x tokens/s` +
            `${figures.cpuRatio === null ? '' : `, ${figures.cpuRatio.toFixed(2)}x less service CPU per token`}; ` +
            `${checked.length} concurrent streams sampled alone again, same completions: ${same ? 'yes' : 'NO'}\n` +
            `  server batching: ${JSON.stringify(figures.serverSampling)}\n`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    service?.child.kill('SIGTERM');
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-sampling: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
