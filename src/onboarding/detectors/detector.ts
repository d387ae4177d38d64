import { z } from 'zod';
import type { RepoFiles } from '../repo-files.js';

/** What a detector found: the runner, the command a user would type, and why it thinks so. */
export const runnerDetectionSchema = z.object({
  language: z.string().describe('e.g. python'),
  runner: z.string().describe('e.g. pytest, unittest, doctest'),
  testCommand: z.string().describe('how the repo runs its tests'),
  evidence: z.array(z.string()).describe('the files or patterns that decided it'),
  /** False when ssr's default test script (python3 -m pytest -rA) would not run these tests. */
  supported: z.boolean(),
  note: z.string().optional().describe('what the user must do when unsupported'),
});
export type RunnerDetection = z.infer<typeof runnerDetectionSchema>;

/**
 * One test runner of one language. Detectors are plain objects listed in `detectors/index.ts` in
 * the order they are tried; the first that answers wins, so a more specific runner comes first.
 */
export interface Detector {
  language: string;
  runner: string;
  detect(files: RepoFiles): Promise<RunnerDetection | undefined>;
}
