/**
 * Child process of run-store-crash.test.ts: records `count` episodes (each with its bug and its
 * samples) into the run dir argv[2], skipping what is done, as the self-play loop will.
 */
import { RunStore } from '../../../src/corpus/run-store.js';
import { SampleWriter } from '../../../src/rl/sample-writer.js';
import { makeBug, makeEpisode } from './corpus-factory.js';

const [root, count] = [process.argv[2]!, Number(process.argv[3])];
const store = await RunStore.open(root, { command: 'selfplay', config: { count } });
const samples = new SampleWriter(root);
for (let i = 0; i < count; i++) {
  const id = `ep-${i}`;
  if (store.hasEpisode(id)) continue;
  const bug = await store.writeBug(makeBug({ bugInject: `diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 0\n+x = ${i}\n` }));
  const sample = {
    id: `solver:${id}`, role: 'solver' as const, groupId: bug.id, episodeId: id, bugId: bug.id, policyVersion: 0, reward: 1, advantage: 0,
    finishReason: 'submitted', masked: false, maskReason: null, tokens: { ids: Array.from({ length: 5000 }, (_, k) => k), lossMask: Array(5000).fill(1), logprobs: Array(5000).fill(-0.5) }, messages: null,
  };
  await samples.append(0, [sample]);
  await store.recordEpisode(makeEpisode({ id, bugId: bug.id }));
}
