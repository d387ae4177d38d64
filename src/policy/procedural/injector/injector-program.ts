import type { SeededRng } from '../../../util/seeded-rng.js';
import { bash, type Program, type ProgramContext, type ProgramStep, type Steps } from '../program.js';
import type { Observation } from '../observation.js';
import type { BugCandidate } from './bug-candidate.js';
import { discover } from './discover.js';
import { findBug, type FoundBug, type SearchOptions } from './find-bug.js';
import {
  BROKE_IMPORTS,
  historyCandidates,
  historyLogCommand,
  keepNonDefiningHunks,
  parseHistoryLog,
  partialRevertCandidate,
  showCommitFileCommand,
  type HistoryLanguage,
  type LoggedCommit,
} from './history-candidates.js';
import { maxRunSeconds, readTimeLimits } from '../run-limits.js';
import { machineCrowding } from '../../../util/machine-crowding.js';
import { readTestRunner } from '../prompt-runner.js';
import { injectorAssets } from './injector-assets.js';
import { readInjectorSettings, type InjectorSettings } from './injector-settings.js';
import { mutationCandidates } from './mutation-candidates.js';
import { readTextFiles } from './read-text-files.js';
import { codeFilePool, drawCodeFile, READ_BUDGET_BYTES, type PoolFile } from './code-file-pool.js';
import type { RepoFacts } from './repo-facts.js';
import { selectTests } from './select-tests.js';
import { applyEdit } from '../../../tools/line-match.js';
import { weakenTests } from './weaken-tests.js';
import { countingRuns, type InjectorRuns } from './count-runs.js';
import { addPhaseTime, timedSteps } from '../phase-times.js';
import { TEST_MAP } from './injector-commands.js';
import { MEMO_FILE } from './discovery-memo.js';
import { queryTestCoverage } from './query-coverage.js';
import { METADATA_PATH, writeArtifact, type InjectorMetadata } from './write-artifact-files.js';

/** Candidate changes tried at most per episode. */
const MAX_ATTEMPTS = 30;
/** Code files read (and so mutated) at most: each read costs a turn and context. */
const MAX_READ_FILES = 4;

/**
 * The procedural Injector (issue 5): discovers the tests, breaks code with the strategy its
 * prompt names (removal, history, or operator mutations for `direct`), keeps a change only
 * when tests that passed now fail on behaviour, selects the oracle test files, deletes the
 * failing tests, writes the five artifact files plus metadata.json and submits them.
 */
export function createInjectorProgram(ctx: ProgramContext): Program {
  return inject(ctx);
}

async function* inject(ctx: ProgramContext): Program {
  const rng = ctx.rng.fork('injector');
  const settings = readInjectorSettings(ctx.systemPrompt, ctx.userPrompt, rng.fork('strategy'));
  const maxRunS = maxRunSeconds(readTimeLimits(ctx.systemPrompt, ctx.userPrompt));
  const runner = readTestRunner(ctx.systemPrompt, ctx.userPrompt);
  const runs: InjectorRuns = { full: 0, restricted: 0 };
  const times = ctx.phaseMs ?? {};
  // Waiting for another episode's discovery of the same tree counts as `memo`: it is how the memo is had.
  const onWait = (ms: number): void => addPhaseTime(times, 'memo', ms);
  const discovery = yield* timedSteps(countingRuns(discover({ coverage: settings.strategy !== 'history', maxRunS, runner, onWait, ...(ctx.memos ? { memos: ctx.memos } : {}) }), runs), times, discoveryPhase);
  if (discovery.status === 'failed') return giveUp(settings, discovery.reason);
  const { facts } = discovery;

  const search: SearchOptions = {
    facts,
    minChangedFiles: settings.minChangedFiles,
    minFailingTests: settings.minFailingTests,
    breadth: { maxFailingTests: settings.maxFailingTests, maxFailingFiles: settings.maxFailingFiles },
    maxAttempts: MAX_ATTEMPTS,
    reserveTurns: 30 + 3 * settings.minChangedFiles,
    times,
    crowding: machineCrowding,
  };
  let candidates: BugCandidate[];
  let sources = new Map<string, string>();
  // How candidates are run: the tests that execute their lines, or the whole suite and why (metadata.json).
  let candidateTests = 'the whole suite: history reverts change lines no map names';
  if (settings.strategy === 'history') {
    const log = yield* timedSteps(oneStep(bash(historyLogCommand(), 'Look through the git history for past fix, edge-case and optimisation commits.')), times, 'read');
    const commits = parseHistoryLog(log.text);
    candidates = historyCandidates(commits, new Set(facts.codeFiles), rng.fork('history'));
    search.onRejected = compatibilityFix(commits, facts.suite.kind === 'js' ? 'javascript' : 'python');
  } else {
    sources = yield* timedSteps(readCodeFiles(facts, settings, rng.fork('files')), times, 'read');
    candidates = mutationCandidates(sources, settings.strategy === 'removal' ? 'removal' : 'operator', facts.coverage, rng.fork('candidates'));
    if (candidates.length > 0) {
      const read = yield* timedSteps(queryTestCoverage(facts, [...new Set(candidates.map((candidate) => candidate.file))]), times, 'read');
      if (read.status === 'ok') search.coverage = read.coverage;
      else candidateTests = `the whole suite: ${read.reason}`;
    }
  }
  if (candidates.length === 0) return giveUp(settings, `the ${settings.strategy} strategy found nothing to change`);

  const bug = yield* countingRuns(findBug(ctx, candidates, search), runs);
  if (!bug) return giveUp(settings, `no ${settings.strategy} change made tests fail on behaviour within the budget`);
  const selection = selectTests(facts, bug.broken, bug.behavioural, settings.minPassingTests);
  if (!selection) return giveUp(settings, `the failing tests' files do not hold ${settings.minPassingTests} passing tests`);
  // Every behavioural failure lies in a clean file holding one, so all of them are oracle tests (F).
  const behavioural = bug.behavioural;
  const weakened = yield* timedSteps(countingRuns(weakenTests(facts, selection, behavioural, textsOnBuggy(sources, bug)), runs), times, 'weaken');
  if (weakened.status === 'failed') return giveUp(settings, weakened.reason);

  const metadata: InjectorMetadata = {
    policy: 'procedural',
    seed: ctx.seed,
    strategy: settings.strategy,
    requestedStrategy: settings.requested,
    operators: bug.parts.map((part) => part.candidate.record),
    oracleFiles: selection.files,
    failToPass: behavioural,
    weakening: { granularity: weakened.weakening.granularity, deletedTests: weakened.weakening.deletedTests, deletedAssertions: weakened.weakening.deletedAssertions },
    attempts: bug.attempts,
    testRuns: { ...runs },
    candidateTests: search.coverage ? 'the test files that execute the changed lines' : candidateTests,
  };
  const written = yield* timedSteps(writeArtifact({
    suite: facts.suite,
    assets: injectorAssets(),
    bugDiffs: bug.parts.map((part) => part.diffPath),
    oracleFiles: selection.files,
    metadata,
  }), times, 'write');
  if (written.status === 'failed') return giveUp(settings, written.reason);
  return describeBug(settings, bug, selection.files, weakened.weakening.hidden);
}

/** Discovery's phase of a step: the traced clean run (it writes the test map), keeping or restoring a memo, else `discover`. */
function discoveryPhase(step: ProgramStep): string {
  if (step.tool !== 'bash') return 'discover';
  return step.args.command.includes(`--map ${TEST_MAP}`) ? 'trace' : step.args.command.includes(MEMO_FILE) ? 'memo' : 'discover';
}

/** One step as a piece of a program (to time it like the others). */
async function* oneStep(step: ProgramStep): Steps<Observation> {
  return yield step;
}

/**
 * Read the code files to mutate: drawn by how many of their lines the tests execute (or their
 * size), in that order; small ones several to a call. A file that cannot be read is replaced by
 * the next draw.
 */
async function* readCodeFiles(facts: RepoFacts, settings: InjectorSettings, rng: SeededRng): Steps<Map<string, string>> {
  const pool = codeFilePool(facts);
  const want = Math.min(pool.length, MAX_READ_FILES + 2 * (settings.minChangedFiles - 1));
  const sources = new Map<string, string>();
  let budget = READ_BUDGET_BYTES;
  for (;;) {
    const drawn: PoolFile[] = [];
    while (sources.size + drawn.length < want) {
      const file = drawCodeFile(pool, rng, budget);
      if (file === undefined) break;
      budget -= file.bytes;
      drawn.push(file);
    }
    if (drawn.length === 0) return sources;
    const texts = yield* readTextFiles(drawn, (paths) => `Read ${paths.join(', ')} to pick code to break.`);
    for (const file of drawn) {
      const text = texts.get(file.path);
      if (text !== null && text !== undefined) sources.set(file.path, text);
    }
  }
}

/** The files already read, as they are on B: a doctest host the weakening edits needs no second read. */
function textsOnBuggy(sources: ReadonlyMap<string, string>, bug: FoundBug): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, text] of sources) {
    const parts = bug.parts.filter((part) => part.candidate.file === file);
    if (parts.length === 0) out.set(file, text);
    const only = parts.length === 1 ? parts[0]!.candidate.apply : undefined;
    if (only?.type !== 'edit') continue;
    const edited = applyEdit(text, only.edit.search, only.edit.replace);
    if (edited.status === 'edited') out.set(file, edited.text);
  }
  return out;
}

/** History's compatibility fix: after a revert that broke imports, retry with the hunks that remove no definition. */
function compatibilityFix(commits: readonly LoggedCommit[], language: HistoryLanguage): NonNullable<SearchOptions['onRejected']> {
  return async function* (candidate, verdict, index) {
    const commit = commits.find((c) => c.sha === candidate.record.commit);
    if (!commit || candidate.apply.type !== 'bash' || !BROKE_IMPORTS[language].test(verdict.reason)) return [];
    if (candidate.record.description.includes('keeping the definitions')) return [];
    const shown = yield bash(showCommitFileCommand(commit.sha, candidate.file), `The revert broke imports; look at the hunks of ${commit.sha.slice(0, 8)} in ${candidate.file}.`);
    const patch = shown.ok ? keepNonDefiningHunks(shown.text, language) : null;
    return patch ? [partialRevertCandidate(commit, candidate.file, patch, String(index))] : [];
  };
}

function describeBug(settings: InjectorSettings, bug: FoundBug, oracleFiles: readonly string[], hidden: number): string {
  const parts = bug.parts.map(({ candidate: { record } }) => {
    const where = record.line ? `${record.file}:${record.line}${record.endLine && record.endLine !== record.line ? `-${record.endLine}` : ''}` : record.file;
    return `${record.operator} in ${where} (${record.description})`;
  });
  return [
    `Injected a ${settings.strategy} bug after ${bug.attempts} tried change(s): ${parts.join('; ')}.`,
    `${bug.behavioural.length} previously passing test(s) now fail; ${hidden} of them are hidden by deleting tests in ${oracleFiles.join(', ')}.`,
    `Submitted the five artifact files; strategy and operators are in ${METADATA_PATH}.`,
  ].join('\n');
}

function giveUp(settings: InjectorSettings, reason: string): string {
  return `No bug submitted (${settings.strategy} strategy): ${reason}.`;
}
