import type { SolverGrade } from './grade-solution.js';

/** Why a patch is dropped from grading, section by section (grade-core widens this list). */
export interface DroppedSection {
  path: string;
  reason: string;
}

/**
 * A grade as `ssr grade --json` prints it: the issue-12 contract `{reward, reason, applied,
 * failingTests, droppedSections, flags}`, plus `code`, a stable kebab-case name of the outcome
 * (`reason` starts with it) that scripts can branch on without parsing prose.
 */
export interface GradeVerdict {
  reward: 1 | -1;
  reason: string;
  applied: SolverGrade['applied'];
  failingTests: string[];
  droppedSections: DroppedSection[];
  flags: string[];
  code: string;
}

/** A reason that already leads with its own code (`some-code: …`) keeps it. */
const LEADING_CODE = /^([a-z][a-z0-9]*(?:-[a-z0-9]+)+):/;

/** The stable outcome code of a grade: what happened, whatever the wording of its reason. */
export function gradeCode(grade: Pick<SolverGrade, 'reward' | 'reason' | 'applied'>, submitted: boolean): string {
  const own = LEADING_CODE.exec(grade.reason)?.[1];
  if (own) return own;
  if (!submitted) return 'no-patch';
  if (grade.applied === null) return 'patch-does-not-apply';
  return grade.reward === 1 ? 'tests-pass' : 'tests-fail';
}

/** The printed verdict of a grade (see {@link GradeVerdict}). */
export function gradeVerdict(grade: SolverGrade, submitted: boolean): GradeVerdict {
  const code = gradeCode(grade, submitted);
  return {
    reward: grade.reward,
    reason: grade.reason.startsWith(`${code}:`) ? grade.reason : `${code}: ${grade.reason}`,
    applied: grade.applied,
    failingTests: grade.failingTests,
    // merge: grade-core adds `droppedSections` ({path, reason}) and `flags` to SolverGrade; use them then.
    droppedSections: grade.droppedTestSections.map((path) => ({ path, reason: 'test-file' })),
    flags: [],
    code,
  };
}
