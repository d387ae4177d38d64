import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../../src/agent/agent-limits.js';
import { JsonlTrajectoryWriter, readTrajectory } from '../../../src/agent/trajectory.js';
import { TRAJECTORY_FORMAT, type TrajectoryExit, type TrajectoryHeader, type TrajectoryStep } from '../../../src/agent/trajectory-record.js';
import { EngineError } from '../../../src/util/engine-error.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-trajectory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const header: TrajectoryHeader = {
  type: 'header', format: TRAJECTORY_FORMAT, episodeId: 'e1', role: 'solver', policy: { name: 'scripted', version: 3 }, seed: 1,
  limits: agentLimitsSchema.parse({}), systemPrompt: 's', userPrompt: 'u', tools: [{ name: 'bash', description: 'd', parameters: { type: 'object' } }],
  startedAt: '2025-01-01T00:00:00.000Z',
};
const step = (turn: number): TrajectoryStep => ({
  type: 'step', turn, assistant: { role: 'assistant', content: 'x', toolCalls: [{ id: 'c', name: 'bash', arguments: { command: 'ls' } }] },
  toolCall: { id: 'c', name: 'bash', arguments: { command: 'ls' } }, observations: [{ role: 'tool', content: 'out', toolCallId: 'c', name: 'bash' }],
  isError: false, submitted: false, finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 2 }, policyVersion: 3,
  timings: { policyMs: 5, toolMs: 7 },
  sample: { promptTokenIds: [1, 2], completionTokenIds: [3], completionLogprobs: [-0.5], policyVersion: 3 },
});
const exit: TrajectoryExit = {
  type: 'exit', exitStatus: 'turn-limit', submission: null, turns: 2, usage: { promptTokens: 20, completionTokens: 4 }, contextTokens: 12,
  formatErrors: 0, durationMs: 99,
};

async function written(name: string, records: object[]): Promise<string> {
  const path = join(dir, name, 'trajectory.jsonl'); // the writer makes the folder
  const writer = await JsonlTrajectoryWriter.open(path);
  for (const record of records) await writer.write(record as TrajectoryHeader);
  await writer.close();
  return path;
}

describe('trajectory JSONL', () => {
  it('round-trips header, steps (with token samples) and exit', async () => {
    const path = await written('full', [header, step(1), step(2), exit]);
    expect(await readTrajectory(path)).toEqual({ header, steps: [step(1), step(2)], exit, truncated: false });
  });

  it('reads the valid prefix of an episode that crashed between lines', async () => {
    const path = await written('crashed', [header, step(1)]);
    expect(await readTrajectory(path)).toEqual({ header, steps: [step(1)], exit: null, truncated: false });
  });

  it('drops a torn last line (a crash mid-write)', async () => {
    const path = await written('torn', [header, step(1)]);
    await appendFile(path, JSON.stringify(step(2)).slice(0, 40));
    expect(await readTrajectory(path)).toEqual({ header, steps: [step(1)], exit: null, truncated: true });
  });

  it('rewrites the file when an episode is retried', async () => {
    const path = await written('retried', [header, step(1), step(2)]);
    const writer = await JsonlTrajectoryWriter.open(path);
    await writer.write(header);
    await writer.close();
    expect((await readFile(path, 'utf8')).split('\n')).toEqual([JSON.stringify(header), '']);
  });

  it.each<[string, string, RegExp]>([
    ['a bad line in the middle', `${JSON.stringify(header)}\n{oops\n${JSON.stringify(exit)}\n`, /:2: not JSON/],
    ['a bad complete last line', `${JSON.stringify(header)}\n{oops\n`, /:2: not JSON/],
    ['a line of the wrong shape', `${JSON.stringify(header)}\n${JSON.stringify({ ...exit, exitStatus: 'won' })}\n`, /:2: .*exitStatus/s],
    ['no header', `${JSON.stringify(step(1))}\n`, /the first line is not a trajectory header/],
    ['an empty file', '', /the first line is not a trajectory header/],
  ])('rejects %s', async (name, text, message) => {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.jsonl`);
    await writeFile(path, text);
    const error = await readTrajectory(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(message);
  });

  it('reports an unwritable location as an EngineError', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    await expect(JsonlTrajectoryWriter.open(join(file, 'x.jsonl'))).rejects.toBeInstanceOf(EngineError);
  });
});
