import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { LoadedRepos } from '../config/load-repos.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { readCorpus } from '../corpus/read-corpus.js';
import type { EvalInstance } from '../evaluation/eval-instance.js';
import { loadEvalSet } from '../evaluation/load-eval-set.js';
import { describePairs, overlapPairs, sharedCommits } from '../evaluation/held-out/train-eval-overlap.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';
import { comparedInstances, type HeldOutPlan } from '../selfplay/held-out-eval.js';
import { EngineError } from '../util/engine-error.js';
import { positiveInt } from '../util/flag-values.js';

/** What a train/eval overlap at start does: `warn` names the pairs and goes on, `refuse` stops the run. */
export const EVAL_OVERLAP_MODES = ['warn', 'refuse'] as const;

/** `ssr selfplay`'s held-out flags. */
export interface EvalSetFlags {
  evalSet?: string;
  evalEvery?: number;
  evalAttempts?: number;
  evalOverlap: (typeof EVAL_OVERLAP_MODES)[number];
  /** False with `--no-eval-at-start`. */
  evalAtStart?: boolean;
}

/** Adds `--eval-set`, `--eval-every`, `--eval-attempts` and `--eval-overlap`. */
export function addEvalSetOptions(command: Command): Command {
  return command
    .option('--eval-set <dir|file.jsonl>', 'held-out set, as ssr eval --set takes it: evaluated (never trained on) after every --eval-every-th step and the last, into <out>/eval/step-<N>/ and the step\'s metrics line (heldOut)')
    .option('--eval-every <n>', 'with --eval-set: evaluate after every n-th step (default: the last step only)', positiveInt('--eval-every'))
    .option('--eval-attempts <k>', 'with --eval-set: Solver attempts per held-out instance (default 1)', positiveInt('--eval-attempts'))
    .option('--no-eval-at-start', 'with --eval-every: do not evaluate the starting policy before step 1 (eval/step-0/, done by default and once: a resume reads it back)')
    .addOption(
      new Option('--eval-overlap <mode>', 'with --eval-set: held-out bugs of the same repo, commit and changed lines as training bugs: warn names them and goes on, refuse stops before any episode')
        .choices(EVAL_OVERLAP_MODES)
        .default('warn'),
    );
}

/**
 * The flags alone, checked before anything starts (a policy preflight, an image build).
 * @throws EngineError `usage` for `--eval-every`, `--eval-attempts` or `--no-eval-at-start` without `--eval-set`.
 */
export function checkEvalSetFlags(flags: EvalSetFlags): void {
  if (flags.evalSet !== undefined) return;
  const stray = flags.evalEvery !== undefined ? '--eval-every' : flags.evalAttempts !== undefined ? '--eval-attempts' : flags.evalAtStart === false ? '--no-eval-at-start' : null;
  if (stray) throw new EngineError('usage', `ssr selfplay: ${stray} needs --eval-set <dir|file.jsonl> (the held-out set to evaluate on)`);
}

export interface HeldOutRun {
  repos: readonly ResolvedRepo[];
  loaded: LoadedRepos | undefined;
  /** `--repo` refs as given (those that are paths let the set name local repositories). */
  repoRefs: readonly string[];
  out: string;
  /** Solve-only mode's corpus (its bugs are the training bugs, known now). */
  corpusDir: string | null;
  backend: SandboxBackend;
  /** `--docker-host` engines given. */
  engines: number;
  warn: (line: string) => void;
}

/**
 * The held-out plan of `ssr selfplay`, or undefined without `--eval-set`; the set is loaded and
 * checked (exists, well formed, its images present, no train/eval overlap under `refuse`) before
 * any episode.
 * @throws EngineError `usage` for a flag without `--eval-set`, a bad set, or a refused overlap.
 */
export async function heldOutPlanOf(flags: EvalSetFlags, run: HeldOutRun): Promise<HeldOutPlan | undefined> {
  checkEvalSetFlags(flags);
  if (flags.evalSet === undefined) return undefined;
  if (resolve(flags.evalSet) === resolve(run.out)) throw new EngineError('usage', `--eval-set ${flags.evalSet} is this run's --out: its bugs are the training bugs; give a held-out set`);
  if (run.corpusDir !== null && resolve(flags.evalSet) === run.corpusDir) throw new EngineError('usage', `--eval-set ${flags.evalSet} is the --corpus this run trains on; give a held-out set`);
  const { path, instances } = await loadEvalSet({ flag: '--eval-set', set: flags.evalSet, repos: run.loaded, repoPaths: run.repoRefs.filter((ref) => existsSync(ref)), backend: run.backend });
  refuseUserImagesOnEngines(flags.evalSet, instances, run.engines);
  await checkOverlap(flags, run, comparedInstances(instances));
  return { set: path, instances, every: flags.evalEvery, attempts: flags.evalAttempts ?? 1, atStart: flags.evalEvery !== undefined && flags.evalAtStart !== false };
}

/**
 * On `--docker-host` engines the evaluation runs on the first engine, with images built or streamed
 * there as the run's own are; an instance that names its own image (a JSONL `image`) would need
 * that image on the engine, which ssr neither checks nor ships.
 * @throws EngineError `usage` naming the instances and the fix.
 */
function refuseUserImagesOnEngines(set: string, instances: readonly EvalInstance[], engines: number): void {
  const own = engines > 0 ? instances.filter((instance) => instance.userImage !== undefined) : [];
  if (own.length === 0) return;
  const named = own.slice(0, 3).map((instance) => `${instance.instanceId} (${instance.userImage})`).join(', ');
  throw new EngineError('usage', `--eval-set ${set}: ${own.length} instance(s) name their own Docker image (${named}), which ssr does not check or ship to --docker-host engines; give a set without "image" lines, or run ssr eval on the engine's host`);
}

/** {@link heldOutPlanOf} as `runSelfplay`'s input field (none without `--eval-set`). */
export async function heldOutInput(flags: EvalSetFlags, run: HeldOutRun): Promise<{ heldOut?: HeldOutPlan }> {
  const heldOut = await heldOutPlanOf(flags, run);
  return heldOut ? { heldOut } : {};
}

/** Train/eval hygiene at start: solve-only mode knows its training bugs (pairs); injection knows its repos and commits. */
async function checkOverlap(flags: EvalSetFlags, run: HeldOutRun, held: ReturnType<typeof comparedInstances>): Promise<void> {
  const refuse = flags.evalOverlap === 'refuse';
  if (run.corpusDir !== null) {
    const train = (await readCorpus(run.corpusDir)).valid.map((bug) => ({ id: bug.id, repo: bug.metadata.repo, commit: bug.metadata.commit, bugInject: bug.artifact.bugInject }));
    const pairs = overlapPairs(train, held);
    if (pairs.length === 0) return;
    const text = `${pairs.length} training bug / held-out instance pair(s) of the same repo, commit and changed lines:\n${describePairs(pairs)}`;
    if (refuse) throw new EngineError('usage', `--eval-overlap refuse: ${text}\nleave these bugs out of --corpus or --eval-set, or give --eval-overlap warn`);
    run.warn(`warning: ${text}\n(counted in the report; eval/overlaps.json lists them)`);
    return;
  }
  const shared = sharedCommits(run.repos.map((repo) => ({ id: repo.id, commit: repo.commit })), held);
  if (shared.length === 0) return;
  const names = shared.slice(0, 10).map((bug) => `  ${bug.id} (${bug.repo}@${bug.commit.slice(0, 12)})`).join('\n') + (shared.length > 10 ? `\n  … and ${shared.length - 10} more` : '');
  const text = `${shared.length} held-out instance(s) are bugs of a repo and commit this run injects into; a bug made there may change their lines:\n${names}`;
  if (refuse) throw new EngineError('usage', `--eval-overlap refuse: ${text}\ngive held-out bugs of other commits, or --eval-overlap warn to count the overlaps as they happen`);
  run.warn(`warning: ${text}\n(bugs made in their lines are counted as overlaps at each evaluation: eval/overlaps.json and the report)`);
}
