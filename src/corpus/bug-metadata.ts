import { z } from 'zod';
import { bugQualitySchema } from './bug-quality.js';

/**
 * `metadata.json` of a stored bug: where it comes from. It is the artifact's metadata file, so it
 * never changes the bug's content id. For an order-2 bug, bug_inject.diff is the whole change
 * from the original (parent bug + the failed attempt's patch), so the dir validates on its own.
 */
export const bugMetadataSchema = z.object({
  id: z.string().min(1),
  repo: z.string().min(1).describe('repo id'),
  commit: z.string().min(1).describe('the original commit (O)'),
  strategy: z.string().min(1),
  order: z.union([z.literal(1), z.literal(2)]),
  parentBugId: z.string().nullable(),
  attemptOf: z.string().nullable().describe('order 2: the failed Solver attempt whose patch it builds on'),
  episodeId: z.string().nullable(),
  policyVersion: z.number().int().nonnegative().nullable(),
  buggyTreeHash: z.string().describe('dedupe key, see buggyTreeHash()'),
  mined: z
    .object({ parent: z.string(), subject: z.string(), message: z.string(), date: z.string() })
    .optional()
    .describe('a real bug mined from history (ssr mine): the fix commit is `commit`, the bug is its parent\'s code; its message is an optional problem statement'),
  quality: bugQualitySchema.optional().describe('breadth, kind and weakening granularity (absent from bug dirs written before it existed)'),
});
export type BugMetadata = z.infer<typeof bugMetadataSchema>;
