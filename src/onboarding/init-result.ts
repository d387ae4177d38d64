import { z } from 'zod';
import { goldenGateSchema } from '../selfplay/golden-gate/judge-golden-gate.js';
import { dependencyHintSchema } from './dependency-hints.js';
import { initTestTimeoutSchema } from './init-test-timeout.js';
import { runnerDetectionSchema } from './detectors/detector.js';

/** Something `ssr init` could not decide, and the repos.yaml field (or repo change) that settles it. */
export const undecidedSchema = z.object({
  field: z.string().describe('what to set, e.g. image.setup, limits.test_timeout_s, or "tests" for the repo itself'),
  why: z.string(),
});
export type Undecided = z.infer<typeof undecidedSchema>;

/** What `ssr init --json` prints. `written`: the entry is in `reposFile`; `undecided`: nothing was written. */
export const initResultSchema = z.object({
  status: z.enum(['written', 'undecided', 'dry-run']),
  path: z.string(),
  commit: z.string(),
  id: z.string(),
  reposFile: z.string(),
  language: z.object({ language: z.string(), files: z.number().int() }).nullable(),
  runner: runnerDetectionSchema.nullable(),
  dependencies: z.array(dependencyHintSchema),
  gate: goldenGateSchema.nullable().describe('the two clean runs (golden gate); null when init stopped before them'),
  cleanSuite: z.object({ passed: z.number().int(), failed: z.number().int() }).nullable().describe('the first clean run, quarantined tests left out'),
  testTimeout: initTestTimeoutSchema.optional().describe('the limits.test_timeout_s decided and why; absent when the gate did not pass'),
  entry: z.record(z.string(), z.unknown()).nullable().describe('the repos.yaml entry written (or that would be, with --dry-run)'),
  replaced: z.boolean().describe('an entry with this id was already in the file and was replaced'),
  undecided: z.array(undecidedSchema),
  notes: z.array(z.string()),
});
export type InitResult = z.infer<typeof initResultSchema>;
