import type { TestRunner } from '../config/repos-schema.js';
import { testFilesForRunner } from '../harness/repo-test-files.js';
import { RUNNER_NAMES } from '../harness/runner-names.js';
import { renderPrompt } from './render-prompt.js';

/** The commands a prompt gives for a JS runner: the whole suite, one file, and how to restrict the example script. */
interface RunnerCommands {
  suite: string;
  file: string;
  restrict: string;
}

type JsRunner = Exclude<TestRunner, 'pytest'>;

const JS_COMMANDS: Readonly<Record<JsRunner, RunnerCommands>> = {
  'node-test': { suite: 'node --test', file: 'node --test <file>', restrict: 'list your files instead of the `find` over the whole tree' },
  jest: { suite: 'npx jest', file: 'npx jest <file>', restrict: 'add `--runTestsByPath` and your files to the jest command' },
  vitest: { suite: 'npx vitest run', file: 'npx vitest run <file>', restrict: 'add your files at the end of the vitest command' },
  mocha: { suite: 'npx mocha', file: 'npx mocha <file>', restrict: 'add your files at the end of the mocha command (a `spec` in .mocharc adds its files too)' },
  tape: { suite: 'node <file> for each test file', file: 'node <file>', restrict: 'list your files instead of the `find` over test/' },
  'node-tap': { suite: 'npx tap', file: 'node <file>', restrict: 'list your files instead of the `find` over test/' },
};

// Python's values are the prompts' text from before they named a runner: a pytest repo's prompts
// are byte for byte what they were.
const PYTHON_INJECTOR = {
  runner_section: '',
  script_example: '(for pytest: `cd /repo && python3 -m pytest -rA -p no:cacheprovider <files>`)',
  code_paths_example: 'path/to/module.py other/module.py',
  test_path_example: 'tests/test_module.py',
  collect_hint: '(`python3 -m pytest --collect-only -q` for a pytest project)',
} as const;

/**
 * The variables of the Injector prompts that depend on the repo's runner (prompts/injector-common.md,
 * and `trivial_errors` of injector-removal.md): for a JS runner a section naming the language, the
 * runner and its commands with ssr's own test script and parser for it as the example.
 */
export function injectorRunnerVariables(runner: TestRunner, strategy: string): Record<string, string> {
  const removal = strategy === 'removal';
  if (runner === 'pytest') {
    return { ...PYTHON_INJECTOR, ...(removal ? { trivial_errors: '`NameError`, `ImportError` or `AttributeError`' } : {}) };
  }
  const commands = JS_COMMANDS[runner];
  const files = testFilesForRunner(runner);
  const runnerSection = renderPrompt('injector-runner-javascript', {
    runner_name: RUNNER_NAMES[runner],
    suite_command: commands.suite,
    file_command: commands.file,
    restrict_hint: commands.restrict,
    suite_script: withFinalNewline(files.testScript),
    suite_parser: withFinalNewline(files.testParser),
  });
  return {
    runner_section: runnerSection,
    script_example: `(for ${RUNNER_NAMES[runner]}: the script above, restricted to your files)`,
    code_paths_example: 'src/module.js src/other.js',
    test_path_example: 'test/module.test.js',
    collect_hint: `(\`${commands.suite}\` runs the ${RUNNER_NAMES[runner]} suite)`,
    ...(removal ? { trivial_errors: '`ReferenceError`, a failed import (`does not provide an export named`) or `TypeError: ... is not a function`' } : {}),
  };
}

/** The Solver prompt's `runner_note`: nothing for pytest (its prompt is as it was), the language and runner for JS. */
export function solverRunnerVariables(runner: TestRunner): { runner_note: string } {
  if (runner === 'pytest') return { runner_note: '' };
  const note = renderPrompt('solver-runner-javascript', { runner_name: RUNNER_NAMES[runner], file_command: JS_COMMANDS[runner].file });
  return { runner_note: `\n${note.trimEnd()}\n` };
}

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
