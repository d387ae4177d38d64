import type { SetupStep, TestRunner } from '../config/repos-schema.js';
import { runnerLanguage } from '../harness/repo-test-files.js';
import { dependencyHints, type DependencyHint } from './dependency-hints.js';
import { detectors } from './detectors/index.js';
import type { RunnerDetection } from './detectors/detector.js';
import type { Undecided } from './init-result.js';
import { jsDependencies } from './js-dependencies.js';
import { detectLanguage } from './languages.js';
import { noRunnerReason } from './no-runner-reason.js';
import type { RepoFiles } from './repo-files.js';

/**
 * What a repo's files at one commit say about how to run it, before anything is built: the one
 * detection `ssr init` writes an entry from and a command given a repo by path runs it with.
 * `undecided` is empty exactly when `testRunner` and `setup` are settled.
 */
export interface RepoDetection {
  language: { language: string; files: number } | null;
  runner: RunnerDetection | null;
  /** test.runner that runs the tests (pytest for Python, including unittest suites); set when decided. */
  testRunner?: TestRunner;
  dependencies: DependencyHint[];
  /** image.setup steps from the dependency hints (requirements files, `npm: ci`). */
  setup: SetupStep[];
  undecided: Undecided[];
  notes: string[];
}

async function detectRunner(files: RepoFiles, language: string): Promise<RunnerDetection | null> {
  for (const detector of detectors.filter((candidate) => candidate.languages.includes(language))) {
    const found = await detector.detect(files);
    if (found) return found;
  }
  return null;
}

/** The dependency hints of the runner's language; a JS repo without a lockfile is undecided (npm ci needs one). */
async function dependenciesFor(files: RepoFiles, runner: TestRunner): Promise<DependencyHint[] | Undecided> {
  if (runnerLanguage(runner) === 'python') return dependencyHints(files);
  const js = await jsDependencies(files);
  return js.status === 'locked' ? js.hints : { field: 'package-lock.json', why: js.why };
}

/** Detect a repo's language, test runner and dependency steps; stops at the first thing it cannot decide. */
export async function detectRepo(files: RepoFiles): Promise<RepoDetection> {
  const result: RepoDetection = { language: detectLanguage(files) ?? null, runner: null, dependencies: [], setup: [], undecided: [], notes: [] };
  const language = result.language?.language;
  if (language === undefined) {
    result.undecided.push({ field: 'language', why: 'no source file with a known extension at HEAD' });
    return result;
  }
  if (!detectors.some((detector) => detector.languages.includes(language))) {
    const known = [...new Set(detectors.flatMap((detector) => detector.languages))].join(', ');
    result.undecided.push({ field: 'language', why: `mostly ${language} files (${result.language!.files}); ssr init detects test runners for ${known} only: write the entry by hand` });
    return result;
  }
  result.runner = await detectRunner(files, language);
  if (result.runner === null) {
    result.undecided.push({ field: 'tests', why: await noRunnerReason(files, language) });
    return result;
  }
  if (!result.runner.supported) {
    result.undecided.push({ field: 'tests', why: `${result.runner.runner}: ${result.runner.note ?? "not run by ssr's default test script"}` });
    return result;
  }
  if (result.runner.warning !== undefined) result.notes.push(result.runner.warning);
  const testRunner = result.runner.testRunner ?? 'pytest';
  const dependencies = await dependenciesFor(files, testRunner);
  if ('why' in dependencies) {
    result.undecided.push(dependencies);
    return result;
  }
  result.testRunner = testRunner;
  result.dependencies = dependencies;
  result.setup = dependencies.flatMap((hint) => (hint.step ? [hint.step] : []));
  result.notes.push(...dependencies.filter((hint) => !hint.step).map((hint) => `${hint.file}: ${hint.detail}`));
  return result;
}

/** One phrase of what was detected, for a refusal: "javascript, tape (package.json scripts.test)". */
export function describeDetection(detection: RepoDetection): string {
  const language = detection.language?.language ?? 'no known language';
  if (detection.runner === null) return `${language}, no test runner found`;
  return `${language}, ${detection.runner.runner} (${detection.runner.evidence.join('; ')})`;
}
