import { z } from 'zod';

/**
 * Anchoring (`--anchor-set S --anchor-ratio p`): real bugs mixed into the Solver's groups. Part of
 * run.json's resume key, so a resumed run plans the same anchor schedule.
 */
export const anchorSettingsSchema = z.object({
  set: z.string().min(1).describe('the anchor set: a dir with bugs/ (ssr mine, ssr selfplay, ssr corpus) or a SWE-bench-format JSONL, absolute'),
  ratio: z.number().gt(0).max(1).describe("share of each step's order-1 episodes that solve an anchor bug instead of injecting, in (0, 1]"),
});
export type AnchorSettings = z.infer<typeof anchorSettingsSchema>;
