import { join } from 'node:path';
import { z } from 'zod';
import { readCorpus } from '../corpus/read-corpus.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { evalPaths } from '../evaluation/eval-log.js';
import { EngineError } from '../util/engine-error.js';
import { measureBug, type BugMeasure, type BugOrigin } from './bug-measure.js';
import { instanceIdOf, type SolverOutcomes } from './realism-table.js';

const MINED = 'mined';
const FLAG: Record<BugOrigin, string> = { synthetic: '--synthetic', real: '--real' };

/**
 * Measure every valid bug of a run dir, corpus or mined set. A synthetic set holding a mined bug,
 * or a real set holding a made one, is refused: the sides would mix.
 * @throws EngineError `usage` naming the dir, the bug and the flag it belongs to.
 */
export async function readRealismSet(dir: string, origin: BugOrigin): Promise<BugMeasure[]> {
  const corpus = await readCorpus(dir);
  return corpus.valid.map((bug) => {
    const mined = bug.metadata.strategy === MINED;
    if (mined !== (origin === 'real')) {
      const other: BugOrigin = mined ? 'real' : 'synthetic';
      throw new EngineError('usage', `${FLAG[origin]} ${dir}: bug ${bug.id} is ${mined ? 'a mined (real) bug' : `a synthetic bug (strategy ${bug.metadata.strategy})`}; give a ${other} set as ${FLAG[other]}`);
    }
    return measureBug({
      bugId: bug.id, repo: bug.metadata.repo, origin, kind: bug.metadata.quality?.kind ?? bug.metadata.strategy,
      bugInject: bug.artifact.bugInject, failToPass: bug.validation.failToPass, testFiles: bug.artifact.testFiles,
    });
  });
}

const evalSummarySchema = z.looseObject({
  policy: z.looseObject({ name: z.string() }),
  outcomes: z.array(z.object({
    instanceId: z.string(), repo: z.string(), kind: z.string(), status: z.enum(['scored', 'invalid']),
    scored: z.number().int().nonnegative(), solved: z.number().int().nonnegative(),
  })),
});

/**
 * The outcomes of an `ssr eval --out` dir (its eval.json), to be matched to a set's bugs by
 * instance id. An eval that holds none of the set's bugs is refused: it was run on another set.
 * @throws EngineError `usage` when eval.json is missing or names none of the bugs.
 */
export async function readSolverOutcomes(evalDir: string, flag: string, bugs: readonly BugMeasure[]): Promise<SolverOutcomes> {
  const path = evalPaths(evalDir).summary;
  const summary = await readJsonFile(path, evalSummarySchema, { optional: true });
  if (summary === null) throw new EngineError('usage', `${flag} ${evalDir}: no ${join(evalDir, 'eval.json')} (give the --out dir of a finished ssr eval)`);
  const ids = new Set(bugs.map(instanceIdOf));
  if (bugs.length > 0 && !summary.outcomes.some((o) => ids.has(o.instanceId))) {
    throw new EngineError('usage', `${flag} ${evalDir}: its eval holds none of the set's ${bugs.length} bug(s); give the --out of ssr eval --set on that set`);
  }
  return { policy: summary.policy.name, outcomes: summary.outcomes };
}
