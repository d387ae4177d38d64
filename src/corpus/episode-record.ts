import { z } from 'zod';
import { exitStatusSchema } from '../agent/agent-exit.js';
import { leakFlagSchema } from '../agent/leak-flag.js';
import { testRunCountsSchema } from '../harness/test-run-counts.js';

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();

/**
 * One line of `episodes.jsonl`: how one self-play episode went (method §5, §6). An order-1 episode
 * is inject → validate → N solves; an order-2 episode starts from a failed attempt of a parent
 * bug (`parentBugId`, `attemptOf`) and has solves only. A `discarded` episode hit the
 * infrastructure: it carries the reason and no reward.
 */
export const episodeRecordSchema = z
  .object({
    id: z.string().min(1).describe('stable across re-runs: the resume key'),
    step: count.describe('self-play step that ran it'),
    repo: z.string().min(1).describe('repo id'),
    strategy: z.string().min(1).describe('injector strategy (removal, history, direct, …)'),
    order: z.union([z.literal(1), z.literal(2)]),
    parentBugId: z.string().nullable().describe('order 2: the bug whose failed attempt this starts from'),
    attemptOf: z.string().nullable().describe('order 2: id of that failed Solver attempt'),
    status: z.enum(['completed', 'discarded']),
    discardReason: z.string().nullable(),
    bugId: z.string().nullable().describe('the stored bug (null when nothing was submitted)'),
    valid: z.boolean().nullable().describe('validation verdict; null when not validated'),
    duplicateOf: z
      .string()
      .min(1)
      .optional()
      .describe('a valid bug whose buggy tree an earlier valid bug of the run already has: that bug\'s id (also bugId); counted once, as `duplicate`, not as valid again'),
    failedCheck: z.string().nullable(),
    solverAttempts: count.describe('scored Solver attempts'),
    solved: count.describe('attempts that earned +1'),
    rewards: z.object({
      injector: z.number().nullable().describe('null for order-2 and discarded episodes'),
      solver: z.array(z.number()).describe('one per scored attempt'),
    }),
    policyVersion: count,
    durationsMs: z.object({ inject: ms, validate: ms, solve: ms, total: ms }),
    turns: count.describe('policy turns over all trajectories of the episode'),
    tokens: count.describe('prompt + completion tokens over all trajectories of the episode'),
    injectorExit: z
      .object({ status: exitStatusSchema, reason: z.string().nullable().describe('a give-up: why the Injector stopped without a bug') })
      .optional()
      .describe("order 1: how the Injector's run ended; absent when it did not run (discarded at inject, solve-only, order 2, older records)"),
    strategyNote: z
      .string()
      .optional()
      .describe('why the planned strategy differs from the requested mix (e.g. history planned only where the repo has usable history)'),
    anchor: z
      .literal(true)
      .optional()
      .describe('anchoring: the episode solved a real bug of the anchor set (no Injector; graded and trained like a synthetic bug); absent otherwise'),
    leaks: z
      .array(leakFlagSchema.extend({ attempt: z.string().min(1).describe('the Solver attempt (its trajectory id)') }))
      .optional()
      .describe("what the Solver attempts reached for that they must not (scanLeaks), every attempt's; absent from records written before it existed"),
    testRuns: testRunCountsSchema
      .optional()
      .describe('test runs the episode started, by kind (original, buggy, weakened, inverse, order, audit, grading, injector), each {full, restricted}; cache hits are not runs; absent from older records'),
    injectPhasesMs: z
      .record(z.string(), ms)
      .optional()
      .describe(
        "where durationsMs.inject went, ms: `sandbox` (acquiring the Injector's sandbox), then the procedural Injector's phases (discover, trace, read, rejected, kept, confirm, weaken, write); the rest of inject is the agent loop and the sandbox's disposal; absent when the Injector did not run, and from older records",
      ),
  })
  .superRefine((record, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if ((record.status === 'discarded') !== (record.discardReason !== null)) issue('a discarded episode, and only one, has a discardReason', 'discardReason');
    if (record.status === 'discarded' && (record.rewards.injector !== null || record.rewards.solver.length > 0)) {
      issue('a discarded episode earns no reward', 'rewards');
    }
    if (record.order === 2 && record.parentBugId === null) issue('an order-2 episode needs its parentBugId', 'parentBugId');
    if (record.order === 2 && record.rewards.injector !== null) issue('order-2 bugs train the Solver only', 'rewards');
    if (record.solved > record.solverAttempts) issue('solved exceeds solverAttempts', 'solved');
    if (record.duplicateOf !== undefined && record.valid !== true) issue('only a valid bug duplicates another (invalid bugs are all kept)', 'duplicateOf');
    if (record.status === 'completed' && record.rewards.solver.length !== record.solverAttempts) {
      issue('a completed episode has one solver reward per scored attempt', 'rewards');
    }
  });
export type EpisodeRecord = z.infer<typeof episodeRecordSchema>;
