import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageRecipeSchema, limitsSchema, thresholdsSchema } from '../../../src/config/repos-schema.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import type { EvalInstance } from '../../../src/evaluation/eval-instance.js';
import { runEval } from '../../../src/evaluation/run-eval.js';
import { createPolicy } from '../../../src/policy/create-policy.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { silentProgress } from '../../../src/util/progress.js';
import { makeArtifact } from '../artifact/artifact-factory.js';

const repo: ResolvedRepo = { id: 'lib', location: '/nowhere', commit: 'a'.repeat(40), image: imageRecipeSchema.parse({}), thresholds: thresholdsSchema.parse({}), limits: limitsSchema.parse({}) };
const instance = (id: string): EvalInstance => ({ instanceId: id, repo, kind: 'mined', artifact: makeArtifact({}) });

describe('runEval: an instance infrastructure keeps from a verdict is tried once more, then counted apart', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'ssr-eval-retry-'));
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('two failures of its sandbox: two tries, notJudged 1, retried 1, no attempt and no rate', async () => {
    const tried: string[] = [];
    const lines: string[] = [];
    const summary = await runEval({
      set: '/sets/s', instances: [instance('lib-1')], policy: await createPolicy({ policy: 'procedural' }), backend: 'bwrap', provider: createProvider('bwrap'),
      attempts: 2, concurrency: 1, out, limits: {}, leakPolicy: 'flag', seed: 0, onLine: (line) => void lines.push(line), progress: silentProgress,
      // The engine that builds the instance's template is down: an infrastructure failure, never a verdict.
      prepare: async (r) => {
        tried.push(r.id);
        throw new EngineError('sandbox-failed', 'Docker engine unreachable');
      },
    });
    expect(tried).toEqual(['lib', 'lib']);
    expect(summary).toMatchObject({ instances: 1, notJudged: 1, retried: 1, discarded: 0, all: { attempts: 0, solved: 0, solveRate: null } });
    expect(lines).toEqual([
      '[1/1] lib-1: not judged (Docker engine unreachable [sandbox-failed])',
      '[1/1] lib-1 (retry): not judged (Docker engine unreachable [sandbox-failed])',
      '1 instance(s) not judged after a retry (infrastructure), left out of the rates: lib-1; a rerun tries them again',
    ]);
    expect(JSON.parse(await readFile(join(out, 'eval.json'), 'utf8'))).toMatchObject({ notJudged: 1, retried: 1 });
  });
});
