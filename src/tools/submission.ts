import { z } from 'zod';

/**
 * What `submit` hands the harness: file *contents* read from the sandbox by the harness itself
 * (the model's claim is never trusted, and a path means nothing once the sandbox is gone).
 * Keyed on `type` = the role that submitted.
 */
export const submissionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('injector'),
    /** Content of bug_inject.diff. */
    bugInject: z.string(),
    /** Content of test_weaken.diff. */
    testWeaken: z.string(),
    /** Content of test_files.txt (one path a line, not yet parsed). */
    testFiles: z.string(),
    /** Content of test_script.sh. */
    testScript: z.string(),
    /** Content of test_parser.py. */
    testParser: z.string(),
    /**
     * The Injector's own notes (strategy, operators, lines) from an optional `metadata.json` beside
     * bug_inject.diff. The model's claim: stored for diversity tracking, never used to judge.
     */
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({
    type: z.literal('solver'),
    /** Content of the Solver's diff (pred_patch.diff). */
    patch: z.string(),
  }),
]);
export type Submission = z.infer<typeof submissionSchema>;
export type InjectorSubmission = Extract<Submission, { type: 'injector' }>;
