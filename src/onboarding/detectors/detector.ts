import { z } from 'zod';
import { testRunnerSchema } from '../../config/repos-schema.js';
import type { RepoFiles } from '../repo-files.js';

/** What a detector found: the runner, the command a user would type, and why it thinks so. */
export const runnerDetectionSchema = z.object({
  language: z.string().describe('the language family whose runners answered: python or javascript (TypeScript included)'),
  runner: z.string().describe('e.g. pytest, unittest, doctest, jest, node-test, or an unknown runner\'s command (ava)'),
  testRunner: testRunnerSchema.optional().describe('the repos.yaml test.runner that runs these tests; absent when unsupported'),
  testCommand: z.string().describe('how the repo runs its tests'),
  evidence: z.array(z.string()).describe('the files or patterns that decided it'),
  /** False when none of ssr's runner scripts (pytest -rA, src/harness/defaults/js/) would run these tests. */
  supported: z.boolean(),
  note: z.string().optional().describe('what the user must do when unsupported'),
  warning: z.string().optional().describe('what init goes on despite, e.g. TypeScript test files the runner\'s script leaves out'),
});
export type RunnerDetection = z.infer<typeof runnerDetectionSchema>;

/**
 * One test runner of one language. Detectors are plain objects listed in `detectors/index.ts` in
 * the order they are tried; the first that answers wins, so a more specific runner comes first.
 */
export interface Detector {
  /** The repo languages (languages.ts) it reads; TypeScript repos use the JavaScript runners. */
  languages: readonly string[];
  runner: string;
  detect(files: RepoFiles): Promise<RunnerDetection | undefined>;
}
