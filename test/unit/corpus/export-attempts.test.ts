import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlTrajectoryWriter } from '../../../src/agent/trajectory.js';
import type { MiniSweAgentTrajectory } from '../../../src/corpus/export-mini-swe-agent.js';
import type { SweBenchPrediction } from '../../../src/corpus/export-predictions.js';
import { RunStore } from '../../../src/corpus/run-store.js';
import { runPaths } from '../../../src/corpus/run-layout.js';
import type { ExitStatus } from '../../../src/agent/agent-exit.js';
import { runCli } from '../../helpers/cli.js';
import { makeBug } from './corpus-factory.js';
import { exit, header, step } from '../rl/trajectory-factory.js';

const PATCH = 'diff --git a/pyledger/money.py b/pyledger/money.py\n--- a/pyledger/money.py\n+++ b/pyledger/money.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';

let root: string;
let corpus: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ssr-export-attempts-'));
  corpus = join(root, 'run');
});
afterEach(async () => {
  process.exitCode = undefined;
  await rm(root, { recursive: true, force: true });
});

async function writeTrajectory(id: string, exitStatus: ExitStatus, patch: string | null): Promise<void> {
  const writer = await JsonlTrajectoryWriter.open(runPaths(corpus).trajectory(id));
  await writer.write(header({ episodeId: id, policy: { name: 'qwen3-coder', version: 3 } }));
  await writer.write(step(1));
  await writer.write(step(2, { submitted: true, formatError: undefined }));
  await writer.write({ ...exit(exitStatus), submission: patch === null ? null : { type: 'solver', patch } });
  await writer.close();
}

/** A valid bug with 4 attempts: a1 solved, a2 failed at the turn limit without submitting, a3 discarded, a4 without a trajectory. */
async function fakeRun(): Promise<string> {
  const store = await RunStore.open(corpus, { command: 'corpus', config: {} });
  const { id } = await store.writeBug(makeBug());
  await store.writeBug(makeBug({ valid: false, bugInject: 'diff --git a/x b/x\n' }));
  const attempt = (n: number, status: 'solved' | 'failed' | 'discarded') => ({
    id: `ep-a${n}`, status, reward: status === 'discarded' ? null : status === 'solved' ? 1 : -1, exitStatus: 'submitted', reason: null,
  });
  await store.writeSolves(id, [attempt(1, 'solved'), attempt(2, 'failed'), attempt(3, 'discarded'), attempt(4, 'failed')]);
  await writeTrajectory('ep-a1', 'submitted', PATCH);
  await writeTrajectory('ep-a2', 'turn-limit', null);
  await writeTrajectory('ep-a3', 'infrastructure-error', null);
  return id;
}

describe('ssr export of Solver attempts', () => {
  it('writes SWE-bench predictions, one per scored attempt with a trajectory', async () => {
    const bug = await fakeRun();
    const out = join(root, 'preds.jsonl');
    const result = await runCli(['export', '--corpus', corpus, '--format', 'swe-bench-predictions', '--out', out, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ format: 'swe-bench-predictions', exported: 2, invalid: 1, missingTrajectories: 1 });
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SweBenchPrediction);
    expect(lines).toEqual([
      { instance_id: `pyledger__${bug}`, model_name_or_path: 'qwen3-coder', model_patch: PATCH, attempt_id: 'ep-a1', status: 'solved', reward: 1, policy_version: 3 },
      { instance_id: `pyledger__${bug}`, model_name_or_path: 'qwen3-coder', model_patch: '', attempt_id: 'ep-a2', status: 'failed', reward: -1, policy_version: 3 },
    ]);
    // --attempt keeps one prediction per instance, as SWE-bench's harness wants.
    const second = join(root, 'second.jsonl');
    expect((await runCli(['export', '--corpus', corpus, '--format', 'swe-bench-predictions', '--out', second, '--attempt', '2'])).code).toBe(0);
    expect((await readFile(second, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as SweBenchPrediction).attempt_id)).toEqual(['ep-a2']);
  });

  it('writes mini-swe-agent trajectories (format mini-swe-agent-1.1, tool-call messages, exit message)', async () => {
    const bug = await fakeRun();
    const out = join(root, 'trajs');
    const result = await runCli(['export', '--corpus', corpus, '--format', 'mini-swe-agent', '--out', out]);
    expect(result).toMatchObject({ code: 0, stdout: `exported 2 Solver attempts of 1 valid bugs, 1 without a trajectory left out (1 invalid left out) to ${out}\n` });
    expect(await readdir(join(out, `pyledger__${bug}`))).toEqual(['ep-a1.traj.json', 'ep-a2.traj.json']);
    const solved = JSON.parse(await readFile(join(out, `pyledger__${bug}`, 'ep-a1.traj.json'), 'utf8')) as MiniSweAgentTrajectory;
    expect(solved.trajectory_format).toBe('mini-swe-agent-1.1');
    expect(solved.info).toMatchObject({ exit_status: 'Submitted', submission: PATCH, model_stats: { instance_cost: 0, api_calls: 2 }, ssr: { attempt_id: 'ep-a1', status: 'solved', reward: 1 } });
    expect(solved.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'user']);
    expect(solved.messages[2]).toMatchObject({ role: 'assistant', content: 'turn 1', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] });
    expect(solved.messages[3]).toEqual({ role: 'tool', content: 'out 1', tool_call_id: 'c1', name: 'bash' });
    expect(solved.messages.at(-1)).toEqual({ role: 'user', content: '', extra: { exit_status: 'Submitted', submission: PATCH } });
    const limited = JSON.parse(await readFile(join(out, `pyledger__${bug}`, 'ep-a2.traj.json'), 'utf8')) as MiniSweAgentTrajectory;
    expect(limited.info).toMatchObject({ exit_status: 'LimitsExceeded', submission: '', ssr: { exit_status: 'turn-limit' } });
  });
});
