import { readCorpus } from '../corpus/read-corpus.js';
import { originalPassingTests } from '../roles/grade-solution.js';
import type { EvalInstance } from './eval-instance.js';
import type { RepoLookup } from './repo-lookup.js';

/**
 * The valid bugs of a run dir, a corpus or a mined set (anything with `bugs/`), each at its own
 * original commit (a mined bug's is its fix commit). Their stored validation is their oracle.
 */
export async function loadCorpusSet(dir: string, lookup: RepoLookup): Promise<{ instances: EvalInstance[]; invalid: number }> {
  const corpus = await readCorpus(dir);
  const instances: EvalInstance[] = [];
  for (const bug of corpus.valid) {
    const repo = await lookup(bug.metadata.repo, `${bug.dir}/metadata.json`);
    instances.push({
      instanceId: `${bug.metadata.repo}__${bug.id}`,
      repo: { ...repo, commit: bug.metadata.commit },
      kind: bug.metadata.quality?.kind ?? bug.metadata.strategy,
      artifact: bug.artifact,
      oracle: { originalPassing: originalPassingTests(bug.validation), originalGuarded: bug.validation.originalGuarded, toleratedTampering: bug.validation.toleratedTampering },
      validation: bug.validation,
      ...(bug.metadata.mined ? { subject: bug.metadata.mined.subject } : {}),
    });
  }
  return { instances, invalid: corpus.invalid };
}
