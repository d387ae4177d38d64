import { z } from 'zod';
import { mutationKindSchema, type Candidate } from './mutation-operator.js';

/** What a procedural bug records about each mutation it applied (bug metadata; never shown to the Solver). */
export const appliedMutationSchema = z.object({
  operator: z.string(),
  kind: mutationKindSchema,
  file: z.string().describe('path relative to the repository root'),
  line: z.number().int().positive().describe('1-based anchor line in the original file'),
  endLine: z.number().int().positive().describe('1-based last line of the replaced original text'),
  description: z.string(),
});
export type AppliedMutation = z.infer<typeof appliedMutationSchema>;

export function recordMutation(candidate: Candidate, file: string): AppliedMutation {
  const { operator, kind, line, endLine, description } = candidate;
  return { operator, kind, file, line, endLine, description };
}
