/**
 * How long the procedural programs let one test run take. Nothing is hard-coded: the ceiling is
 * what the prompts state (the bash command limit, and for the Injector the test-script limit,
 * which self-play derives from the repo's golden clean-suite time), and a run after the clean one
 * gets a limit proportional to how long the clean suite took in this very sandbox — so a slow
 * suite is not cut at a fixed 100 s and a hanging mutation of a fast one costs seconds.
 */

/** No run is given less than this, s: interpreter start-up and collection alone can take seconds. */
export const RUN_FLOOR_S = 10;
/** Left of the bash command limit for the commands around the run (parsing, summarising), s. */
const COMMAND_MARGIN_S = 15;
/** A later run may take this many times the clean suite's time (failing tests print tracebacks, mutations slow code down)… */
const CLEAN_FACTOR = 3;
/** …plus this many seconds. */
const CLEAN_SLACK_S = 10;
/** The ceiling when no prompt states one: the tools' default 120 s command limit less the margin. */
const DEFAULT_MAX_S = 105;

/** The time limits the rendered prompts state, s; null when a prompt does not say. */
export interface PromptTimeLimits {
  /** "Each command may run for at most N seconds" (the system prompt). */
  commandS: number | null;
  /** "It must finish within N seconds" (the Injector's test_script.sh limit). */
  testS: number | null;
}

/** Read the limits the prompts state (see {@link PromptTimeLimits}). */
export function readTimeLimits(systemPrompt: string, userPrompt: string): PromptTimeLimits {
  const number = (match: RegExpExecArray | null): number | null => (match ? Number(match[1]) : null);
  return {
    commandS: number(/\bat most (\d+) seconds\b/.exec(systemPrompt)),
    testS: number(/\bfinish within (\d+) seconds\b/.exec(userPrompt)),
  };
}

/** The longest one run may take: the test-script limit, within the command limit less a margin; never under the floor. */
export function maxRunSeconds(limits: PromptTimeLimits): number {
  const command = limits.commandS === null ? DEFAULT_MAX_S : limits.commandS - COMMAND_MARGIN_S;
  const test = limits.testS ?? Infinity;
  return Math.max(RUN_FLOOR_S, Math.min(command, test));
}

/** The limit of a run after the clean one: {@link CLEAN_FACTOR}× its time plus slack, within [floor, max]. */
export function runLimitSeconds(cleanSeconds: number, maxSeconds: number): number {
  return Math.min(maxSeconds, Math.max(RUN_FLOOR_S, Math.ceil(CLEAN_FACTOR * cleanSeconds + CLEAN_SLACK_S)));
}
