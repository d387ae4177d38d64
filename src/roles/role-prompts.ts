import { isDoctestHost } from '../code/doctest-diff-rules.js';
import { formatGitDiff } from '../code/format-git-diff.js';
import { trimHunkContext } from '../code/trim-hunk-context.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import type { AgentLimits } from '../agent/agent-limits.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import { invertUnifiedDiff } from '../code/invert-diff.js';
import type { TestRunner, Thresholds } from '../config/repos-schema.js';
import { EngineError } from '../util/engine-error.js';
import type { InjectorStrategy } from './injector-strategy.js';
import { renderPrompt } from './render-prompt.js';
import { injectorRunnerVariables, solverRunnerVariables } from './runner-prompt-variables.js';

/** The two prompts of an episode: the shared agent system prompt and the role's task. */
export interface RolePrompts {
  systemPrompt: string;
  userPrompt: string;
}

/** What the Injector prompts state about validation (method §3 thresholds, the test time limit). */
export interface InjectorPromptSettings {
  thresholds: Thresholds;
  testTimeoutMs: number;
  /** The repo's runner (repos.yaml `test.runner`): a JS runner's prompts name the language, the runner and its commands. Default pytest. */
  testRunner?: TestRunner;
}

function systemPrompt(limits: AgentLimits): string {
  return renderPrompt('system', { command_timeout_s: Math.ceil(limits.commandTimeoutMs / 1000) }).trimEnd();
}

/** The Injector's prompts for one strategy, with the repo's thresholds filled in. */
export function injectorPrompts(strategy: InjectorStrategy, settings: InjectorPromptSettings, limits: AgentLimits): RolePrompts {
  const { thresholds } = settings;
  const userPrompt = renderPrompt(`injector-${strategy}`, {
    min_passing_tests: thresholds.min_passing_tests,
    min_changed_files: thresholds.min_changed_files,
    min_failing_tests: thresholds.min_failing_tests,
    max_failing_tests: thresholds.max_failing_tests,
    max_failing_files: thresholds.max_failing_files,
    test_timeout_s: Math.ceil(settings.testTimeoutMs / 1000),
    ...injectorRunnerVariables(settings.testRunner ?? 'pytest', strategy),
  });
  return { systemPrompt: systemPrompt(limits), userPrompt: userPrompt.trimEnd() };
}

/**
 * The Solver's task statement (method §4): test_weaken.diff reversed, i.e. the test changes that
 * would bring the hidden tests back.
 * @throws EngineError `artifact-invalid-input` when the diff cannot be reversed (validation rejects such artifacts).
 */
export function solverTaskDiff(artifact: BugArtifact): string {
  try {
    return withoutCodeContext(invertUnifiedDiff(artifact.testWeaken));
  } catch (error) {
    if (!isDiffParseError(error)) throw error;
    throw new EngineError('artifact-invalid-input', `test_weaken.diff cannot be reversed into a task statement: ${error.message}`, { cause: error });
  }
}

/**
 * In a code file that hosts doctests the weakening's hunks are examples, but their context lines
 * can be the (buggy) code right after a docstring: the statement shows the changes without the
 * context around them there. Test files keep their diff as it is.
 */
function withoutCodeContext(diff: string): string {
  const files = parseUnifiedDiff(diff).files;
  if (!files.some((file) => isDoctestHost(file.newPath ?? file.oldPath ?? ''))) return diff;
  return formatGitDiff(files.map((file) => (isDoctestHost(file.newPath ?? file.oldPath ?? '') ? trimHunkContext(file) : file)));
}

/**
 * The Solver's prompts: the fixed template of method §4 wrapping the reversed test_weaken.diff; for a
 * JS runner a note naming the language and the runner follows it (never the test script or files).
 */
export function solverPrompts(artifact: BugArtifact, limits: AgentLimits, testRunner: TestRunner = 'pytest'): RolePrompts {
  const userPrompt = renderPrompt('solver', {
    repository: 'the repository in /repo',
    reversed_test_weaken: solverTaskDiff(artifact).trimEnd(),
    ...solverRunnerVariables(testRunner),
  });
  return { systemPrompt: systemPrompt(limits), userPrompt: userPrompt.trimEnd() };
}

/**
 * The task statement alone (method §4's template around the reversed test_weaken.diff, without how
 * the ssr harness collects the patch): what a SWE-bench export gives as `problem_statement`.
 */
export function solverStatement(artifact: BugArtifact): string {
  return renderPrompt('solver-statement', { repository: 'this repository', reversed_test_weaken: solverTaskDiff(artifact).trimEnd() }).trimEnd();
}
