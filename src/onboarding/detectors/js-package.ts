import type { TestRunner } from '../../config/repos-schema.js';
import type { RepoFiles } from '../repo-files.js';

/** The JS test runners ssr has a script and parser for (src/harness/defaults/js/), by the binary a test script calls. */
export const JS_RUNNER_BINARIES: Readonly<Record<string, TestRunner>> = {
  jest: 'jest',
  vitest: 'vitest',
  mocha: 'mocha',
  tape: 'tape',
  tap: 'node-tap',
};
export const KNOWN_JS_RUNNERS: readonly TestRunner[] = ['jest', 'vitest', 'mocha', 'node-test', 'tape', 'node-tap'];

/** What package.json at the repo root says, as far as runner detection reads it. */
export interface JsPackage {
  /** scripts.test, unless absent or npm's placeholder ("echo \"Error: no test specified\" && exit 1"). */
  testScript?: string;
  scripts: Readonly<Record<string, string>>;
  /** dependencies and devDependencies together. */
  dependencies: ReadonlySet<string>;
  /** Top-level keys (a "jest" or "mocha" key configures that runner). */
  keys: ReadonlySet<string>;
}

const strings = (value: unknown): Record<string, string> =>
  typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};

/** package.json at the root, read leniently (undefined when absent or not a JSON object). */
export async function readJsPackage(files: RepoFiles): Promise<JsPackage | undefined> {
  const text = await files.read('package.json');
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  const scripts = strings(record.scripts);
  const test = scripts.test?.trim();
  return {
    ...(test && !/no test specified/.test(test) ? { testScript: test } : {}),
    scripts,
    dependencies: new Set([...Object.keys(strings(record.dependencies)), ...Object.keys(strings(record.devDependencies))]),
    keys: new Set(Object.keys(record)),
  };
}

/** Which runner a test script runs: a known one, `unknown` (another command), or none when there is no script. */
export type ScriptRunner = { kind: 'known'; runner: TestRunner; command: string } | { kind: 'unknown'; command: string } | { kind: 'none' };

/** Words of a command that are not the runner: wrappers, env assignments, flags. */
const WRAPPERS = new Set(['npx', 'pnpm', 'yarn', 'exec', 'cross-env', 'c8', 'nyc', 'env', 'dotenv', '--']);

/** The runner of one shell command, following `npm run <script>` into the package's other scripts. */
function runnerOfCommand(command: string, scripts: Readonly<Record<string, string>>, depth: number): TestRunner | 'unknown' {
  const found: (TestRunner | 'unknown')[] = [];
  for (const part of command.split(/&&|\|\||;|\|/).map((piece) => piece.trim()).filter(Boolean)) {
    const words = part.split(/\s+/).filter((word) => !WRAPPERS.has(word) && !/^[A-Z_][A-Z0-9_]*=/.test(word));
    const [head, second, third] = words;
    const binary = head?.replace(/^.*node_modules\/\.bin\//, '');
    if (binary === undefined) continue;
    if ((binary === 'npm' && second === 'run' && third) || (binary === 'npm' && second === 'test')) {
      const name = second === 'test' ? 'test' : third!;
      if (depth < 4 && name !== 'test' && scripts[name] !== undefined) found.push(runnerOfCommand(scripts[name], scripts, depth + 1));
      continue;
    }
    if (binary === 'node' && words.includes('--test')) found.push('node-test');
    else if (JS_RUNNER_BINARIES[binary] !== undefined) found.push(JS_RUNNER_BINARIES[binary]);
    else if (!['echo', 'rm', 'mkdir', 'tsc', 'eslint', 'prettier', 'standard', 'xo', 'rimraf', 'true'].includes(binary) && !/^(lint|build|pre|format)/.test(binary)) found.push('unknown');
  }
  return found.find((runner) => runner !== 'unknown') ?? 'unknown';
}

/** The runner `npm test` runs, read from scripts.test (npm's placeholder counts as no script). */
export function scriptRunner(pkg: JsPackage): ScriptRunner {
  if (pkg.testScript === undefined) return { kind: 'none' };
  const runner = runnerOfCommand(pkg.testScript, pkg.scripts, 0);
  return runner === 'unknown' ? { kind: 'unknown', command: pkg.testScript } : { kind: 'known', runner, command: pkg.testScript };
}

/** Root files whose name matches `pattern` (config files such as jest.config.*). */
export function rootFiles(files: RepoFiles, pattern: RegExp): string[] {
  return files.paths.filter((path) => !path.includes('/') && pattern.test(path));
}
