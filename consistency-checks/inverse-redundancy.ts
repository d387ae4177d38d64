import { parseUnifiedDiff } from '../src/code/unified-diff.js';
import { brokenByBug, fail, pass, reportOf, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';

/**
 * method §3.7 inverse redundancy (inverse mutation testing): for each file f of bug_inject.diff,
 * revert only f on B and run the oracle tests; f contributes iff some test of F then passes.
 * A file that does not contribute is padding, and rejects the artifact, unless the context says
 * the bug is a real fix (`inverseRedundancy: 'record'`): then it passes with the finding in its
 * reason and evidence (`enforced: false`). The runs are started in
 * parallel by the validator; this check only reads them.
 */
export const inverseRedundancyCheck: ConsistencyCheck = {
  name: 'inverse-redundancy',
  async run(ctx): Promise<Verdict> {
    const files = parseUnifiedDiff(ctx.artifact.bugInject).touchedPaths;
    const original = await reportOf(ctx, 'original');
    if ('verdict' in original) return original.verdict;
    const buggy = await reportOf(ctx, 'buggy');
    if ('verdict' in buggy) return buggy.verdict;
    const broken = brokenByBug(original.report.statuses, buggy.report.statuses);

    const contributions: Record<string, string[]> = {};
    for (const file of files) {
      const reverted = await reportOf(ctx, `inverse:${file}`);
      if ('verdict' in reverted) return reverted.verdict;
      contributions[file] = broken.filter((id) => reverted.report.statuses[id] === 'passed');
    }
    const redundant = files.filter((file) => (contributions[file] ?? []).length === 0);
    const evidence = {
      files,
      redundantFiles: redundant,
      fixedByReverting: Object.fromEntries(Object.entries(contributions).map(([file, ids]) => [file, ids.length])),
    };
    if (redundant.length > 0 && ctx.inverseRedundancy === 'record') {
      // A real fix is not padded by an adversary: parts that only fix the bug together are kept, and said.
      const kept = `reverting ${redundant.join(', ')} alone fixes none of the ${broken.length} failing test(s); kept as a real fix whose files fix the bug together (inverse redundancy is enforced on injected bugs only)`;
      return pass(kept, { ...evidence, enforced: false });
    }
    if (redundant.length > 0) {
      return fail(`reverting ${redundant.join(', ')} alone fixes none of the ${broken.length} failing test(s): ${redundant.length === 1 ? 'it does' : 'they do'} not contribute to the bug`, evidence);
    }
    return pass(`each of the ${files.length} changed file(s) alone fixes some failing test when reverted`, evidence);
  },
};
