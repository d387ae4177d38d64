import { z } from 'zod';

/**
 * What readers need of `validation.json` (the validator's full `ValidationResult` is stored; other
 * fields pass through): the verdict and SWE-bench's test sets.
 */
export const storedValidationSchema = z.looseObject({
  valid: z.boolean(),
  failedCheck: z.string().nullable().default(null),
  failToPass: z.array(z.string()).default([]),
  passToPass: z.array(z.string()).default([]),
  /** O's runs were guarded (grading holds Solver runs to it); false for validations made before guards. */
  originalGuarded: z.boolean().default(false),
  /** What the guard reported on O's own runs, which grading lets attempts repeat (ValidationResult.toleratedTampering). */
  toleratedTampering: z.array(z.string()).default([]),
});
export type StoredValidation = z.infer<typeof storedValidationSchema>;
