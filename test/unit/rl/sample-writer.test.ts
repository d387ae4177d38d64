import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SampleWriter, readSamples } from '../../../src/rl/sample-writer.js';
import type { TrainingSample } from '../../../src/rl/training-sample.js';
import { EngineError } from '../../../src/util/engine-error.js';

const sample = (id: string, overrides: Partial<TrainingSample> = {}): TrainingSample => ({
  id, role: 'solver', groupId: 'solver:bug-1:order-1', episodeId: 'ep-1', bugId: 'bug-1', policyVersion: 3, reward: 1, advantage: 0.5,
  finishReason: 'submitted', masked: false, maskReason: null, tokens: { ids: [1, 2], lossMask: [0, 1], logprobs: [null, -0.3] }, messages: null,
  ...overrides,
});

let run: string;
beforeEach(async () => {
  run = await mkdtemp(join(tmpdir(), 'ssr-samples-'));
});
afterEach(() => rm(run, { recursive: true, force: true }));

describe('SampleWriter', () => {
  it('appends to samples/v<version>.jsonl and skips ids already written', async () => {
    const writer = new SampleWriter(run);
    expect(await writer.append(3, [sample('a'), sample('b')])).toEqual({ written: 2, skipped: 0 });
    expect(await writer.append(3, [sample('b'), sample('c'), sample('c')])).toEqual({ written: 1, skipped: 2 });
    expect((await readSamples(run, 3)).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(await readSamples(run, 4)).toEqual([]);
  });

  it('skips what an earlier process wrote, and repairs the line it tore', async () => {
    await new SampleWriter(run).append(0, [sample('a')]);
    const path = join(run, 'samples', 'v0.jsonl');
    await appendFile(path, JSON.stringify(sample('b')).slice(0, 30));
    expect((await readSamples(run, 0)).map((s) => s.id)).toEqual(['a']);
    expect(await new SampleWriter(run).append(0, [sample('a'), sample('b')])).toEqual({ written: 1, skipped: 1 });
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.map((line) => (line ? (JSON.parse(line) as TrainingSample).id : line))).toEqual(['a', 'b', '']);
  });

  it('writes each id once under concurrent appends', async () => {
    const writer = new SampleWriter(run);
    const results = await Promise.all([writer.append(1, [sample('x'), sample('y')]), writer.append(1, [sample('y'), sample('x')])]);
    expect(results.map((r) => r.written).sort()).toEqual([0, 2]);
    expect((await readSamples(run, 1)).map((s) => s.id)).toEqual(['x', 'y']);
  });

  it('rejects a sample that does not match the schema, writing nothing', async () => {
    const writer = new SampleWriter(run);
    await expect(writer.append(1, [sample('ok'), sample('bad', { policyVersion: -1 })])).rejects.toThrow(EngineError);
    await expect(writer.append(1, [sample('bad', { policyVersion: -1 })])).rejects.toThrow(/training sample bad: .*policyVersion/s);
    expect(await readSamples(run, 1)).toEqual([]);
  });
});
