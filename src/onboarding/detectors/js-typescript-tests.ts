import type { TestRunner } from '../../config/repos-schema.js';
import type { RepoFiles } from '../repo-files.js';
import { few } from './python-files.js';

/** The sandbox's Node (Debian bookworm's), which neither strips types nor ships a TypeScript loader. */
const SANDBOX_NODE = 'Node 18';

const JS_EXTENSION = /\.[cm]?js$/;
const TS_EXTENSION = /\.[cm]?tsx?$/;
/** node-test.sh's names (Node's default `--test` patterns), whatever the extension. */
const NODE_TEST_NAME = /(^|\/)([^/]*[.\-_]test|test-[^/]*|test)\.[cm]?[jt]sx?$/;
/** tap-files.sh's files: everything under test/ but fixtures. */
const UNDER_TEST_DIR = (path: string): boolean => path.startsWith('test/') && !path.includes('/fixtures/');

interface TestFileRules {
  /** The JavaScript files ssr's script runs as tests. */
  runs: (path: string) => boolean;
  /** Where a TypeScript test file of this runner would be (its extension aside). */
  tests: (path: string) => boolean;
}

/**
 * The runners whose ssr script starts each test file with plain `node`
 * (src/harness/defaults/js/node-test.sh, tap-files.sh). Jest, Vitest and Mocha run through the
 * repo's own config, which can bring a TypeScript transform.
 */
const PLAIN_NODE_RUNNERS: Partial<Record<TestRunner, TestFileRules>> = {
  'node-test': { runs: (path) => NODE_TEST_NAME.test(path), tests: (path) => NODE_TEST_NAME.test(path) || UNDER_TEST_DIR(path) },
  tape: { runs: UNDER_TEST_DIR, tests: UNDER_TEST_DIR },
  'node-tap': { runs: UNDER_TEST_DIR, tests: UNDER_TEST_DIR },
};

/** What TypeScript test files mean for a runner: nothing, a refusal (no test would run) or a warning (some would not). */
export type TypeScriptTestsVerdict = { status: 'none' } | { status: 'refuse'; note: string } | { status: 'warn'; warning: string };

function why(runner: TestRunner, tsFiles: readonly string[]): string {
  return (
    `TypeScript test files (${few(tsFiles)}) cannot run under ${runner} in ssr's sandboxes: ssr runs each test file with plain \`node\` ` +
    `(its own ${runner} script, not scripts.test), on ${SANDBOX_NODE}, which has no type stripping and no TypeScript loader`
  );
}

const FIX =
  'Run the suite with Vitest (it runs TypeScript as is: scripts.test `vitest run`, test.runner vitest) or with Jest and a TypeScript transform (ts-jest or babel-jest); ' +
  'a loader in scripts.test (`node --import tsx --test`, `tape -r ts-node/register`) is not enough, since ssr runs its own runner script';

/**
 * Whether `runner` can run the repo's tests as ssr will run them: a runner whose script starts
 * test files with plain `node` skips `.ts` ones (and Node 18 could not load them anyway). All
 * its tests in TypeScript: refuse (the golden gate would see no tests, or stale compiled ones);
 * some: warn that those are left out. Declaration files are not tests.
 */
export async function typescriptTestsVerdict(files: RepoFiles, runner: TestRunner): Promise<TypeScriptTestsVerdict> {
  const rules = PLAIN_NODE_RUNNERS[runner];
  if (rules === undefined) return { status: 'none' };
  const paths = files.paths.filter((path) => !path.startsWith('node_modules/') && !path.includes('/node_modules/'));
  const tsFiles = paths.filter((path) => TS_EXTENSION.test(path) && !/\.d\.[cm]?ts$/.test(path) && rules.tests(path));
  if (tsFiles.length === 0) return { status: 'none' };
  const jsFiles = paths.filter((path) => JS_EXTENSION.test(path) && rules.runs(path));
  if (jsFiles.length === 0) return { status: 'refuse', note: `${why(runner, tsFiles)}, so none of the suite would run. ${FIX}` };
  return { status: 'warn', warning: `${why(runner, tsFiles)}: only its JavaScript test files (${few(jsFiles)}) run. ${FIX}` };
}
