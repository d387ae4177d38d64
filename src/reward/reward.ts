import { z } from 'zod';

/**
 * The outcome of a pure reward function (method §4, §5): the scalar the policy is
 * trained on, the named numbers it was computed from (for logs and reports) and one line of why.
 */
export const rewardSchema = z.object({
  value: z.number().describe('the scalar reward'),
  components: z.record(z.string(), z.number()).describe('the inputs and intermediate numbers, by name'),
  reason: z.string().describe('one human-readable line'),
});
export type Reward = z.infer<typeof rewardSchema>;
