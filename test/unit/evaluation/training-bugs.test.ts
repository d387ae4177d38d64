import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStoredBug } from '../../../src/corpus/write-stored-bug.js';
import { TrainingBugIndex } from '../../../src/evaluation/held-out/training-bugs.js';
import { makeArtifact } from '../artifact/artifact-factory.js';

const C1 = '1'.repeat(40);
/** lib/a.py line 2 rewritten. */
const LINE_2 = 'diff --git a/lib/a.py b/lib/a.py\n--- a/lib/a.py\n+++ b/lib/a.py\n@@ -1,3 +1,3 @@\n c1\n-old2\n+new2\n c3\n';
/** lib/b.py line 2 rewritten: another file, no pair with LINE_2. */
const OTHER = LINE_2.replaceAll('lib/a.py', 'lib/b.py');

describe('TrainingBugIndex: the run\'s training bugs compared with the held-out set', () => {
  let run: string;
  const store = async (id: string, bugInject: string, valid = true) => {
    const metadata = { id, repo: 'pylib', commit: C1, strategy: 'removal', order: 1 as const, parentBugId: null, attemptOf: null, episodeId: null, policyVersion: null, buggyTreeHash: id };
    await writeStoredBug(join(run, 'bugs', id), makeArtifact({ bugInject }), metadata, { valid, failedCheck: valid ? null : 'breadth', failToPass: [], passToPass: [] });
  };
  beforeAll(async () => {
    run = await mkdtemp(join(tmpdir(), 'ssr-training-bugs-'));
  });
  afterAll(() => rm(run, { recursive: true, force: true }));

  it('reads each bug dir once over the evaluations: later ones read only bugs written since', async () => {
    const index = new TrainingBugIndex([{ id: 'pylib__held', repo: 'pylib', commit: C1, bugInject: LINE_2 }]);
    expect(await index.refresh([run, join(run, 'no-such-corpus')])).toEqual([]);
    await store('bug-a', LINE_2);
    await store('bug-b', OTHER);
    await store('bug-c', LINE_2, false);
    expect((await index.refresh([run])).map((pair) => [pair.trainBug, pair.instanceId, pair.file])).toEqual([['bug-a', 'pylib__held', 'lib/a.py']]);
    expect(index.bugsRead).toBe(3);
    await store('bug-d', LINE_2);
    // The second evaluation: one new bug read, the earlier pair kept, the invalid bug still no pair.
    expect((await index.refresh([run])).map((pair) => pair.trainBug)).toEqual(['bug-a', 'bug-d']);
    expect(index.bugsRead).toBe(4);
    expect((await index.refresh([run])).map((pair) => pair.trainBug)).toEqual(['bug-a', 'bug-d']);
    expect(index.bugsRead).toBe(4);
  });
});
