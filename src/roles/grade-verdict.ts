import type { DroppedSection } from './grading/drop-reason.js';
import type { SolverGrade } from './grade-solution.js';

/**
 * A grade as `ssr grade --json` prints it: the issue-12 contract `{reward, reason, applied,
 * failingTests, droppedSections, flags}`, plus `code`, the stable kebab-case name of the outcome
 * (SolverGrade's `code`; `reason` starts with it) that scripts can branch on without parsing prose.
 */
export interface GradeVerdict {
  reward: 1 | -1;
  reason: string;
  applied: SolverGrade['applied'];
  failingTests: string[];
  droppedSections: DroppedSection[];
  flags: string[];
  code: SolverGrade['code'];
}

/** The printed verdict of a grade (see {@link GradeVerdict}). */
export function gradeVerdict(grade: SolverGrade): GradeVerdict {
  const { code } = grade;
  return {
    reward: grade.reward,
    reason: grade.reason.startsWith(`${code}:`) ? grade.reason : `${code}: ${grade.reason}`,
    applied: grade.applied,
    failingTests: grade.failingTests,
    droppedSections: grade.droppedSections,
    flags: grade.flags,
    code,
  };
}
