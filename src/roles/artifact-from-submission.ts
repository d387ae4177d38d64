import { bugArtifactSchema, type BugArtifact } from '../artifact/bug-artifact.js';
import { parseTestFilesList } from '../artifact/test-files-list.js';
import type { InjectorSubmission } from '../tools/submission.js';

/**
 * The artifact an Injector submitted, or why its test_files.txt cannot be one (absolute, `..` or
 * duplicate paths). Such a submission is the model's mistake: an invalid artifact, not an error.
 */
export function artifactFromSubmission(submission: InjectorSubmission): { artifact: BugArtifact } | { problem: string } {
  const list = parseTestFilesList(submission.testFiles);
  if (list.problems.length > 0) return { problem: `test_files.txt ${list.problems.join('; ')}` };
  return {
    artifact: bugArtifactSchema.parse({
      bugInject: submission.bugInject,
      testWeaken: submission.testWeaken,
      testFiles: list.files,
      testScript: submission.testScript,
      testParser: submission.testParser,
      ...(submission.metadata ? { metadata: submission.metadata } : {}),
    }),
  };
}
