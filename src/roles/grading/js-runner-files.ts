/**
 * The JavaScript / TypeScript files a Solver's patch may not change (method §4: nothing that changes
 * how the tests are collected or run counts). Jest, Vitest, Mocha, node:test, tape and node-tap
 * read configuration, setup files, reporters, transforms and mocks from the tree; an honest fix
 * changes none of them.
 */

/** Exact file names that configure the runner, the module loader or the package, anywhere. */
const CONFIG_NAMES = new Set([
  // the package: "jest" / "mocha" / "ava" fields, "scripts.test", "bin", "type", "imports", "exports"
  'package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'pnpm-workspace.yaml',
  '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnp.cjs', '.pnp.js', '.pnp.loader.mjs',
  // runners and the transforms they apply to test files
  '.taprc', '.babelrc', '.swcrc', 'tsconfig.json', 'jsconfig.json', '.node-version', '.nvmrc',
]);

/** `<tool>.config.*`: the runners and the bundlers / transpilers whose config they load. */
const CONFIG_FILE = /^(?:jest|vitest|vite|babel|ava|karma|mocha|tap|c8|nyc|swc|esbuild|rollup|webpack|tsup|postcss|wallaby|stryker|playwright|cypress)\.config\.[a-z]+$/i;
/** Vitest's workspace / projects files: which configs (so which tests) run. */
const VITEST_WORKSPACE = /^vitest\.(?:workspace|projects)\.[a-z]+$/i;
/** Dot-file configs in every spelling (`.mocharc.yml`, `.babelrc.js`, `.c8rc.json`, `.nycrc`). */
const RC_FILE = /^\.(?:mocharc|babelrc|c8rc|nycrc|taprc|swcrc|jestrc)(?:\.[a-z]+)?$/i;
/** `tsconfig.build.json` and the like: the compiler options a TS runner applies. */
const TSCONFIG = /^[jt]sconfig(?:\.[\w-]+)?\.json$/i;
/**
 * Setup and machinery files by their conventional names: `jest.setup.js`, `setupTests.ts`,
 * `vitest-setup.mjs`, `global-teardown.js`, `test-env.js`, `jest-preset.js`, `mocha.reporter.cjs`.
 * A config names them, so editing an existing one rewrites results as surely as a new config.
 */
const SETUP_FILE = new RegExp(
  '^(?:(?:jest|vitest|vite|mocha|ava|tap|tape|karma|tests?)[._-]?(?:setup|teardown|env|environment|globals?|reporter|sequencer|resolver|transform(?:er)?|preset|runner|hooks?)' +
    '|setup[._-]?(?:tests?|jest|vitest|mocha|env|files?)|teardown[._-]?(?:tests?|jest|vitest|mocha)?|global[._-]?(?:setup|teardown))(?:[._-][\\w-]+)*\\.[cm]?[jt]sx?$',
  'i',
);
/** Folders whose content the runner uses in place of modules or records: Jest's automocks and snapshots. */
const RUNNER_DIRS = new Set(['__mocks__', '__snapshots__', '__fixtures__']);

/** Whether a file name (the last path segment) configures or sets up a JS test runner. */
export function isJsRunnerConfig(name: string): boolean {
  return CONFIG_NAMES.has(name) || CONFIG_FILE.test(name) || VITEST_WORKSPACE.test(name) || RC_FILE.test(name) || TSCONFIG.test(name) || SETUP_FILE.test(name);
}

/** Whether a path lies in a folder a JS runner reads in place of code (`__mocks__/`, `__snapshots__/`). */
export function isJsRunnerDir(parts: readonly string[]): boolean {
  return parts.slice(0, -1).some((part) => RUNNER_DIRS.has(part));
}

/**
 * Whether a path is inside installed packages (`node_modules/` at any depth: Node resolves bare
 * imports through every ancestor's). Changing one replaces the runner (`node_modules/.bin/jest`,
 * `node_modules/jest-circus/…`), an assertion library, or a dependency the tests import.
 */
export function isInstalledPackagePath(parts: readonly string[]): boolean {
  return parts.includes('node_modules');
}
