import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../../src/agent/agent-limits.js';
import { JsonlTrajectoryWriter, readTrajectory } from '../../../src/agent/trajectory.js';
import { TRAJECTORY_FORMAT, type TrajectoryExit, type TrajectoryHeader, type TrajectoryRecord, type TrajectoryStep } from '../../../src/agent/trajectory-record.js';
import type { TokenSample } from '../../../src/policy/policy.js';
import { buildTokenTrajectory } from '../../../src/policy/token-trajectory.js';
import { EngineError } from '../../../src/util/engine-error.js';

const FORMAT_1_FIXTURE = join(import.meta.dirname, '../../fixtures/trajectories/format-1-tokens.jsonl');

let dir: string;
let files = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-trajectory-format-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const header: TrajectoryHeader = {
  type: 'header', format: TRAJECTORY_FORMAT, episodeId: 'e1', role: 'injector', policy: { name: 'tokens:toy', version: 1 },
  limits: agentLimitsSchema.parse({}), systemPrompt: 's', userPrompt: 'u', tools: [], startedAt: '2025-01-01T00:00:00.000Z',
};
const exit: TrajectoryExit = {
  type: 'exit', exitStatus: 'turn-limit', submission: null, turns: 3, usage: { promptTokens: 0, completionTokens: 0 }, contextTokens: 0, formatErrors: 0, durationMs: 1,
};
const step = (turn: number, sample: TokenSample | undefined): TrajectoryStep => ({
  type: 'step', turn, assistant: { role: 'assistant', content: `t${turn}` }, observations: [{ role: 'user', content: `o${turn}` }], submitted: false,
  finishReason: 'stop', usage: { promptTokens: sample?.promptTokenIds.length ?? 0, completionTokens: 2 }, policyVersion: 1, timings: { policyMs: 1, toolMs: 1 },
  ...(sample ? { sample } : {}),
});

/** Deterministic, realistic-looking ids (vocabulary ~152k) so byte sizes are those of a real episode. */
const ids = (seed: number, count: number): number[] => Array.from({ length: count }, (_, i) => ((seed * 7919 + i * 104_729) % 151_936));

/**
 * A tokens episode as the tokens policy samples it: turn k's prompt is turn k−1's prompt + its
 * completion + `observation` new ids (tool output, template glue).
 */
function chainedSamples(turns: number, observation: number, completion: number, firstPrompt = observation): TokenSample[] {
  const samples: TokenSample[] = [];
  let context: number[] = ids(0, firstPrompt);
  for (let k = 1; k <= turns; k++) {
    const completionIds = ids(k * 2, completion);
    samples.push({
      promptTokenIds: context, completionTokenIds: completionIds, completionLogprobs: completionIds.map((_, i) => -((i % 7) + 1) / 16),
      policyVersion: 1, retokenizationWarnings: 0,
    });
    context = [...context, ...completionIds, ...ids(k * 2 + 1, observation)];
  }
  return samples;
}

async function written(records: TrajectoryRecord[]): Promise<string> {
  const path = join(dir, `t${++files}.jsonl`);
  const writer = await JsonlTrajectoryWriter.open(path);
  for (const record of records) await writer.write(record);
  await writer.close();
  return path;
}

const episode = (samples: Array<TokenSample | undefined>): TrajectoryRecord[] => [header, ...samples.map((s, k) => step(k + 1, s)), exit];

/** The step lines' samples exactly as the file stores them. */
async function storedSamples(path: string): Promise<Array<Record<string, unknown> | undefined>> {
  const lines = (await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; sample?: Record<string, unknown> });
  return lines.filter((line) => line.type === 'step').map((line) => line.sample);
}

/** Hand-written file lines, for the shapes the writer never produces. */
const sampled = { completionTokenIds: [9, 8], completionLogprobs: [-0.5, -0.25], policyVersion: 1 };
const delta = (turn: number, prefix: number, added: number[]) => ({ ...step(turn, undefined), sample: { promptPrefixTokens: prefix, promptTokenIdsAdded: added, ...sampled } });
const lines = (...records: object[]): string => records.map((record) => `${JSON.stringify(record)}\n`).join('');

async function readError(text: string): Promise<EngineError> {
  const path = join(dir, `bad-${++files}.jsonl`);
  await writeFile(path, text);
  const error = await readTrajectory(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe(`trajectory format ${TRAJECTORY_FORMAT}: token samples stored as prompt deltas`, () => {
  it('round-trips a multi-turn tokens episode to identical samples, storing each turn\'s new prompt ids only', async () => {
    const samples = chainedSamples(6, 40, 8);
    const path = await written(episode(samples));
    const back = await readTrajectory(path);
    expect(back).toEqual({ header, steps: samples.map((s, k) => step(k + 1, s)), exit, truncated: false });
    expect(back.steps.map((s) => s.sample)).toEqual(samples);

    const stored = await storedSamples(path);
    expect(stored.map((s) => [s!.promptPrefixTokens, (s!.promptTokenIdsAdded as number[]).length])).toEqual([
      [0, 40], [48, 40], [96, 40], [144, 40], [192, 40], [240, 40],
    ]);
    expect(stored.every((s) => !('promptTokenIds' in s!))).toBe(true);
    expect(stored[0]).toEqual({ ...samples[0], promptTokenIds: undefined, promptPrefixTokens: 0, promptTokenIdsAdded: samples[0]!.promptTokenIds });
    const trajectory = buildTokenTrajectory(back.steps.map((s) => s.sample!));
    expect(trajectory.tokens).toEqual([...samples[5]!.promptTokenIds, ...samples[5]!.completionTokenIds]);
  });

  it('stores the full prompt of a turn that does not extend the previous one, and the episode still fails to chain', async () => {
    const samples = chainedSamples(4, 5, 3);
    // Turn 3 retokenised: the previous completion came back as different ids (state lost).
    const retokenised = [...samples[1]!.promptTokenIds, 7, 7, 7, ...samples[2]!.promptTokenIds.slice(samples[1]!.promptTokenIds.length + 3)];
    samples[2] = { ...samples[2]!, promptTokenIds: retokenised, retokenizationWarnings: 1 };
    samples[3] = { ...samples[3]!, promptTokenIds: [...retokenised, ...samples[2]!.completionTokenIds, 4, 4] };
    const path = await written(episode(samples));

    const stored = await storedSamples(path);
    expect(stored.map((s) => s!.promptPrefixTokens)).toEqual([0, 8, 0, retokenised.length + 3]);
    expect(stored[2]!.promptTokenIdsAdded).toEqual(retokenised);
    const back = await readTrajectory(path);
    expect(back.steps.map((s) => s.sample)).toEqual(samples);
    expect(() => buildTokenTrajectory(back.steps.map((s) => s.sample!))).toThrow(
      /^turn 2: its prompt does not extend the episode's tokens so far \(first difference at position 13 of 16\)$/,
    );
  });

  it('stores the full prompt after a step without a sample, and keeps steps without samples as they were', async () => {
    const samples = chainedSamples(3, 5, 2);
    const path = await written(episode([samples[0], undefined, samples[2]]));
    expect((await storedSamples(path)).map((s) => s?.promptPrefixTokens)).toEqual([0, undefined, 0]);
    expect((await readTrajectory(path)).steps).toEqual([step(1, samples[0]), step(2, undefined), step(3, samples[2])]);
  });

  it('starts a new chain at a header (a writer reused for another episode)', async () => {
    const [first] = chainedSamples(1, 5, 2);
    const extending = { ...first!, promptTokenIds: [...first!.promptTokenIds, ...first!.completionTokenIds] };
    const path = await written([header, step(1, first), exit, header, step(1, extending)]);
    expect((await storedSamples(path)).map((s) => s!.promptPrefixTokens)).toEqual([0, 0]);
  });

  it('refuses a header of another format: the writer writes only the current one', async () => {
    const writer = await JsonlTrajectoryWriter.open(join(dir, 'old-header.jsonl'));
    await expect(writer.write({ ...header, format: 1 })).rejects.toThrow(`this writer writes format ${TRAJECTORY_FORMAT}, the header says 1`);
    await writer.close();
  });

  it('keeps the size of a step line independent of the turn: 50 turns of a growing context cost bytes linear in the context', async () => {
    const bytes = async (turns: number) => {
      const records = episode(chainedSamples(turns, 500, 100));
      const path = await written(records);
      const lines = (await readFile(path, 'utf8')).trim().split('\n');
      const format1 = records.reduce((sum, record) => sum + JSON.stringify(record).length + 1, 0); // what the format-1 writer wrote
      return { total: (await stat(path)).size, format1, stepLines: lines.slice(1, -1).map((line) => line.length) };
    };
    const [half, full] = [await bytes(25), await bytes(50)];
    // Each step line holds one turn's new ids: the last line is no bigger than the second one.
    const later = full.stepLines.slice(1);
    expect(Math.max(...later) / Math.min(...later)).toBeLessThan(1.1);
    // Twice the turns (and context): about twice the bytes; format 1 grew about 4×.
    expect(full.total / half.total).toBeLessThan(2.1);
    expect(full.format1 / half.format1).toBeGreaterThan(3.5);
    // 30k tokens of final context: the file is about one copy of it, format 1 held ~25 copies.
    const context = JSON.stringify(chainedSamples(50, 500, 100).at(-1)!.promptTokenIds).length;
    expect(full.total).toBeLessThan(1.5 * context);
    expect(full.format1).toBeGreaterThan(20 * context);
  });

  it.each<[string, () => string, RegExp]>([
    ['a format-1 file with a delta sample', () => lines({ ...header, format: 1 }, delta(1, 0, [1])), /:2: a format-1 step sample stores promptTokenIds$/],
    [
      'a format-2 file with a full sample',
      () => lines(header, step(1, { promptTokenIds: [1], ...sampled })),
      /:2: a format-2 step sample stores promptPrefixTokens \+ promptTokenIdsAdded$/,
    ],
    [
      'a prefix the previous turn does not have',
      () => lines(header, delta(1, 0, [1]), delta(2, 2, [5])),
      /:3: promptPrefixTokens 2 is neither 0 nor the previous turn's 3 prompt \+ completion ids$/,
    ],
    ['a prefix with no previous sample', () => lines(header, delta(1, 4, [1])), /:2: promptPrefixTokens 4 but no previous step has a token sample$/],
    ['a sample of neither shape', () => lines(header, { ...step(1, undefined), sample: { promptTokenIdsAdded: [1], ...sampled } }), /:2: .*promptTokenIds/s],
  ])('rejects %s', async (_case, text, message) => {
    const error = await readError(text());
    expect(error.code).toBe('artifact-invalid-input');
    expect(error.message).toMatch(message);
  });
});

describe('trajectory format 1 (files written by older versions)', () => {
  it('loads with the full prompts it stored, and chains into one token sequence', async () => {
    const text = await readFile(FORMAT_1_FIXTURE, 'utf8');
    const raw = text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; sample?: TokenSample });
    const trajectory = await readTrajectory(FORMAT_1_FIXTURE);
    expect(trajectory.header).toMatchObject({ format: 1, episodeId: 'ep-format-1', policy: { name: 'tokens:fake-model' } });
    expect(trajectory.exit?.exitStatus).toBe('format-errors');
    expect(trajectory.truncated).toBe(false);
    const samples = trajectory.steps.map((s) => s.sample!);
    expect(samples).toEqual(raw.filter((line) => line.type === 'step').map((line) => line.sample));
    expect(samples.map((s) => [s.promptTokenIds.length, s.completionTokenIds.length, s.policyVersion, s.retokenizationWarnings])).toEqual([
      [101, 23, 0, 0], [164, 29, 3, 0], [228, 5, 3, 0],
    ]);
    const tokens = buildTokenTrajectory(samples);
    expect(tokens.tokens).toEqual([...samples[2]!.promptTokenIds, ...samples[2]!.completionTokenIds]);
    expect(tokens.lossMask.filter((bit) => bit === 1)).toHaveLength(23 + 29 + 5);
  });

  it('rewritten by the current writer, reads back to the same steps in fewer bytes', async () => {
    const old = await readTrajectory(FORMAT_1_FIXTURE);
    const path = await written([{ ...old.header, format: TRAJECTORY_FORMAT }, ...old.steps, old.exit!]);
    const back = await readTrajectory(path);
    expect(back).toEqual({ ...old, header: { ...old.header, format: TRAJECTORY_FORMAT } });
    expect((await stat(path)).size).toBeLessThan((await stat(FORMAT_1_FIXTURE)).size);
  });
});
