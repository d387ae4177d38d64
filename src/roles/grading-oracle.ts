import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { CheckName } from '../validator/check-types.js';
import { validateArtifact, type ValidateOptions, type ValidationResult } from '../validator/validate-artifact.js';
import { EngineError } from '../util/engine-error.js';
import { originalPassingTests } from './grade-solution.js';

/**
 * What grading a patch on an artifact needs from its validation: the artifact is valid, and the
 * oracle (tests that pass on O) with quarantined tests left out — or the check that rejected it.
 */
export type GradingOracle =
  | { status: 'valid'; validation: ValidationResult; originalPassing: string[]; quarantined: string[] }
  | { status: 'invalid'; validation: ValidationResult; failedCheck: CheckName; reason: string };

/**
 * The grading oracle of a validation: FAIL_TO_PASS ∪ PASS_TO_PASS without the tests the golden
 * gate quarantined (their outcome on the clean repo is not stable, so they cannot judge a patch).
 */
export function oracleOf(validation: ValidationResult, quarantine: ReadonlySet<string> = new Set()): { originalPassing: string[]; quarantined: string[] } {
  const all = originalPassingTests(validation);
  return { originalPassing: all.filter((id) => !quarantine.has(id)), quarantined: all.filter((id) => quarantine.has(id)) };
}

/**
 * Validate an artifact (method §3) and derive its grading oracle: the one way `ssr solve`, `ssr
 * grade` and self-play get what `gradeSolution` is graded against.
 *
 * @throws EngineError `sandbox-failed` when the validation could not judge the artifact
 *   (infrastructure): that is never "invalid".
 */
export async function validateForGrading(artifact: BugArtifact, options: ValidateOptions, quarantine?: ReadonlySet<string>): Promise<GradingOracle> {
  const validation = await validateArtifact(artifact, options);
  if (validation.infrastructureError) {
    const { check, reason } = validation.infrastructureError;
    throw new EngineError('sandbox-failed', `validation could not judge the artifact (${check}): ${reason}`);
  }
  if (!validation.valid) {
    const failedCheck = validation.failedCheck!;
    const reason = validation.checks.find((check) => check.name === failedCheck)?.reason ?? '';
    return { status: 'invalid', validation, failedCheck, reason };
  }
  return { status: 'valid', validation, ...oracleOf(validation, quarantine) };
}
