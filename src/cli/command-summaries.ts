/**
 * The one-line summary each command shows in `ssr --help` (its full description stays in
 * `ssr <command> --help`). Short enough that the list never wraps on an 80-column terminal.
 */
export const COMMAND_SUMMARIES: Readonly<Record<string, string>> = {
  init: 'onboard a repo: detect tests, gate, write repos.yaml',
  selfplay: 'run the self-play loop: inject, validate, solve, train',
  inject: 'run one Injector episode and validate its bug',
  solve: 'run N graded Solver attempts on a bug artifact',
  grade: 'grade a patch on a bug artifact as self-play does',
  validate: 'run the consistency checks on a bug artifact',
  corpus: 'generate a deduplicated bug corpus over a repo set',
  export: 'export bugs as runnable SWE-bench instances, Solver attempts',
  mine: "mine real bugs from a repo's history of fix commits",
  eval: 'solve rate and pass@k of a policy on a held-out set',
  realism: 'synthetic and mined bugs side by side, measured alike',
  report: 'write the HTML report of a run (or compare runs)',
  'test-run': "run a repo's tests + parser in a fresh sandbox",
  'build-image': "build a repo's sandbox image (reused when present)",
  doctor: 'check Docker, bubblewrap, images; say what to fix',
};
