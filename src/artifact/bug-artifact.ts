import { z } from 'zod';
import { testFilePathProblem } from './test-files-list.js';

/** The artifact's file names inside an artifact directory and inside the sandbox: a contract (method §2). */
export const ARTIFACT_FILES = {
  bugInject: 'bug_inject.diff',
  testWeaken: 'test_weaken.diff',
  testFiles: 'test_files.txt',
  testScript: 'test_script.sh',
  testParser: 'test_parser.py',
  /** Optional: free-form facts about the artifact (strategy, parent, model); never part of its id. */
  metadata: 'metadata.json',
} as const;

export type ArtifactFileKey = keyof typeof ARTIFACT_FILES;

/** The five required files, in the order they are checked and hashed. */
export const REQUIRED_ARTIFACT_FILES = ['bugInject', 'testWeaken', 'testFiles', 'testScript', 'testParser'] as const satisfies readonly ArtifactFileKey[];

const testFilesSchema = z.array(z.string()).superRefine((files, ctx) => {
  const seen = new Set<string>();
  files.forEach((file, index) => {
    const problem = testFilePathProblem(file) ?? (seen.has(file) ? `duplicate "${file}"` : null);
    if (problem) ctx.addIssue({ code: 'custom', path: [index], message: problem });
    seen.add(file);
  });
});

/**
 * A bug artifact as the Injector submits it (method §2). Strings are the files' exact text;
 * `testFiles` is the parsed list of test_files.txt. Whether the diffs parse and apply is the
 * validator's question, not the schema's.
 */
export const bugArtifactSchema = z
  .object({
    bugInject: z.string().describe('bug_inject.diff: git-style diff that breaks code files only'),
    testWeaken: z.string().describe('test_weaken.diff: git-style diff over listed test files that hides the bug'),
    testFiles: testFilesSchema.describe('test_files.txt: oracle test files, repo-relative, unique'),
    testScript: z.string().describe('test_script.sh: runs the selected tests verbosely'),
    testParser: z.string().describe('test_parser.py: test log on stdin → JSON {test id: "passed"|"failed"} on stdout'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('metadata.json: free-form, excluded from the id'),
  })
  .strict();
export type BugArtifact = z.infer<typeof bugArtifactSchema>;
