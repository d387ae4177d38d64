import { languageOfPath } from '../../../code/source-language.js';
import type { TestRunner } from '../../../config/repos-schema.js';
import type { JsRunner } from '../../../harness/js-test-files.js';
import { shellQuote } from '../../../util/shell-quote.js';

/**
 * Which runner the procedural Solver runs the tests with. It sees no test script, so it tells
 * from what it has: the prompt when that names exactly one runner, else the repo itself
 * (package.json's dependencies and `scripts.test`, the task's test file extensions).
 */

/** Shell lines that print what the repo says about its language and runner (`#probe …` lines). */
export const RUNNER_PROBE = [
  `for f in package.json pyproject.toml setup.py setup.cfg; do [ -f "$f" ] && echo "#probe file $f"; done`,
  // package.json's runner facts, read with the Python every sandbox has (its parsers run there).
  `[ -f package.json ] && python3 -c ${shellQuote(
    [
      'import json',
      'p = json.load(open("package.json"))',
      'deps = {**p.get("dependencies", {}), **p.get("devDependencies", {})}',
      'print("#probe deps " + " ".join(sorted(deps)))',
      'print("#probe test " + str((p.get("scripts") or {}).get("test", "")).replace("\\n", " "))',
    ].join('\n'),
  )} 2>/dev/null`,
  'true',
].join('\n');

/** Runner names as a prompt would write them, each with its runner. */
const PROMPT_NAMES: readonly [RegExp, TestRunner][] = [
  [/\bpytest\b/, 'pytest'],
  [/\bjest\b/i, 'jest'],
  [/\bvitest\b/i, 'vitest'],
  [/\bmocha\b/i, 'mocha'],
  [/\bnode:test\b|\bnode --test\b|\bnode-test\b/, 'node-test'],
  [/\bnode-tap\b/, 'node-tap'],
  [/\btape\b/, 'tape'],
];

/** Dependencies that name a runner, most specific first (a vitest repo may also depend on jest's matchers). */
const BY_DEPENDENCY: readonly [string, JsRunner][] = [['vitest', 'vitest'], ['jest', 'jest'], ['mocha', 'mocha'], ['tap', 'node-tap'], ['tape', 'tape']];

/**
 * The runner a prompt names, when it names exactly one. Fenced blocks (the task's diff) are
 * left out: test code and its strings name runners and plain words ("tape") by the way.
 */
export function runnerInPrompt(prompt: string): TestRunner | undefined {
  const prose = prompt.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
  const named = PROMPT_NAMES.filter(([pattern]) => pattern.test(prose)).map(([, runner]) => runner);
  return named.length === 1 ? named[0] : undefined;
}

/** What the probe printed. */
export interface RepoProbe {
  files: Set<string>;
  deps: Set<string>;
  testScript: string;
}

export function readProbe(text: string): RepoProbe {
  const probe: RepoProbe = { files: new Set(), deps: new Set(), testScript: '' };
  for (const line of text.split('\n')) {
    const match = /^#probe (file|deps|test) ?(.*)$/.exec(line);
    if (!match) continue;
    if (match[1] === 'file') probe.files.add(match[2]!);
    else if (match[1] === 'deps') for (const dep of match[2]!.split(' ').filter(Boolean)) probe.deps.add(dep);
    else probe.testScript = match[2]!;
  }
  return probe;
}

/**
 * The runner to use: the prompt's when it names one; else a JS repo's runner from its
 * dependencies, then from `scripts.test` (`node --test` → node-test), node:test when neither
 * says; pytest for a Python repo. A repo is JS when the task's test files are JS/TS, or, with
 * no such hint, when it has a package.json and no Python project file.
 */
export function chooseRunner(probe: RepoProbe, taskFiles: readonly string[], prompt: string): TestRunner {
  const named = runnerInPrompt(prompt);
  if (named) return named;
  const languages = new Set(taskFiles.map((file) => languageOfPath(file)).filter((language) => language !== undefined));
  const python = ['pyproject.toml', 'setup.py', 'setup.cfg'].some((file) => probe.files.has(file));
  const javascript = languages.size > 0 ? !languages.has('python') : probe.files.has('package.json') && !python;
  if (!javascript) return 'pytest';
  const byDependency = BY_DEPENDENCY.find(([dep]) => probe.deps.has(dep))?.[1];
  if (byDependency) return byDependency;
  const script = probe.testScript;
  if (/\bnode\b.*--test\b/.test(script)) return 'node-test';
  const byScript = BY_DEPENDENCY.find(([dep]) => new RegExp(`(^|[\\s/])${dep}(\\s|$)`).test(script))?.[1];
  return byScript ?? 'node-test';
}
