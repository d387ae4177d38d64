import { invertUnifiedDiff } from '../../code/invert-diff.js';
import type { AnchorBug } from './anchor-bug.js';
import type { SeededRng } from '../../util/seeded-rng.js';

/** Real fixes shown to one history Injector at most, and the characters each diff may take. */
export const REAL_FIX_EXAMPLES = 3;
export const REAL_FIX_DIFF_CHARS = 2_000;

function bounded(diff: string): string {
  const text = diff.trimEnd();
  return text.length <= REAL_FIX_DIFF_CHARS ? text : `${text.slice(0, REAL_FIX_DIFF_CHARS)}\n… (cut at ${REAL_FIX_DIFF_CHARS} characters)`;
}

/** A bug's diff reversed (its fix), or null when it does not reverse (the example is left out). */
function fixOf(diff: string): string | null {
  try {
    return invertUnifiedDiff(diff);
  } catch {
    return null;
  }
}

/**
 * The history strategy's appendix of real fixes (anchoring): up to {@link REAL_FIX_EXAMPLES} of
 * the repo's anchor bugs, drawn with `rng`, each as the test change that caught it and the code
 * change that fixed it (the reverse of its test_weaken.diff and bug_inject.diff), every diff cut
 * at {@link REAL_FIX_DIFF_CHARS} characters so the prompt stays bounded. Null with no anchor bug.
 */
export function realFixesSection(anchors: readonly AnchorBug[], rng: SeededRng): string | null {
  const examples = rng.shuffle(anchors).flatMap((anchor) => {
    const code = fixOf(anchor.artifact.bugInject);
    const tests = fixOf(anchor.artifact.testWeaken);
    return code === null || tests === null ? [] : [{ subject: anchor.subject, code, tests }];
  }).slice(0, REAL_FIX_EXAMPLES);
  if (examples.length === 0) return null;
  const blocks = examples.map((example, i) => [
    `### Real fix ${i + 1}${example.subject ? `: ${example.subject}` : ''}`,
    'The test change that caught the bug:', '```diff', bounded(example.tests), '```',
    'The code change that fixed it:', '```diff', bounded(example.code), '```',
  ].join('\n'));
  return [
    '## Examples of real fixes in this repository',
    'These are real bugs this repository had, each with the test that caught it and the fix. Bugs like these are what to aim for: look in the history for fixes of this kind to undo. Do not undo these very fixes: the Solver already trains on them.',
    ...blocks,
  ].join('\n\n');
}
