import type { AgentRole, ChatMessage, Policy, PolicyTurn, TokenUsage } from '../policy/policy.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Submission } from '../tools/submission.js';
import { toToolSpec, type Tool } from '../tools/tool.js';
import { errorMessage, isEngineError } from '../util/engine-error.js';
import type { AgentExit, ExitStatus } from './agent-exit.js';
import { agentLimitsSchema, type AgentLimits } from './agent-limits.js';
import { ContextBudget } from './context-budget.js';
import { dispatchTurn, type DispatchedTurn } from './dispatch-turn.js';
import type { TrajectorySink } from './trajectory.js';
import { TRAJECTORY_FORMAT } from './trajectory-record.js';

/** Below this many tokens of room the model cannot answer usefully, so the context counts as full. */
export const MIN_RESPONSE_TOKENS = 256;

export interface RunAgentOptions {
  policy: Policy;
  sandbox: Sandbox;
  role: AgentRole;
  /** Rendered prompts (the roles module renders them). */
  systemPrompt: string;
  userPrompt: string;
  tools: readonly Tool[];
  /** Missing fields take the defaults of {@link agentLimitsSchema}. */
  limits?: Partial<AgentLimits>;
  episodeId: string;
  seed?: number;
  trajectory?: TrajectorySink;
  /** Aborting it ends the episode as `cancelled`. */
  signal?: AbortSignal;
}

/**
 * Run one episode (method §8): query the policy, run its one tool call per turn, feed back the
 * observation with the remaining budget, until the model ends with a plain message after a submit
 * or a limit is hit. Never throws for the model's or the policy's failures: every ending is an
 * {@link AgentExit}; a trajectory sink that fails (disk) is the only exception that escapes.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentExit> {
  const { policy, sandbox, role, tools, episodeId, seed, trajectory } = options;
  const limits = agentLimitsSchema.parse(options.limits ?? {});
  const started = Date.now();
  const deadline = started + limits.maxWallMs;
  const specs = tools.map(toToolSpec);
  const messages: ChatMessage[] = [
    { role: 'system', content: options.systemPrompt },
    { role: 'user', content: options.userPrompt },
  ];
  // A model served with a smaller context than --max-context-tokens ends the episode at its own size.
  const budget = new ContextBudget(Math.min(limits.maxContextTokens, policy.contextLength ?? Infinity));
  budget.add(messages);
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let turns = 0;
  let streak = 0;
  let formatErrors = 0;
  let submission: Submission | null = null;

  await trajectory?.write({
    type: 'header', format: TRAJECTORY_FORMAT, episodeId, role, policy: { name: policy.name, version: policy.version },
    seed, limits, systemPrompt: options.systemPrompt, userPrompt: options.userPrompt, tools: specs, startedAt: new Date(started).toISOString(),
  });

  const finish = async (exitStatus: ExitStatus, error?: unknown, gaveUp?: string): Promise<AgentExit> => {
    const exit: AgentExit = {
      exitStatus, submission, turns, usage, contextTokens: budget.used(), formatErrors, durationMs: Date.now() - started,
      ...(error === undefined ? {} : { error: describeError(error) }),
      ...(gaveUp === undefined ? {} : { gaveUp }),
    };
    policy.endEpisode?.(episodeId);
    await trajectory?.write({ type: 'exit', ...exit });
    return exit;
  };
  const ended = (): ExitStatus | null =>
    options.signal?.aborted ? 'cancelled' : Date.now() >= deadline ? 'time-limit' : null;

  for (;;) {
    const stop = ended() ?? (turns >= limits.maxTurns ? 'turn-limit' : budget.remaining() < MIN_RESPONSE_TOKENS ? 'context-limit' : null);
    if (stop) return finish(stop);

    const policyStart = Date.now();
    let turn: PolicyTurn;
    try {
      const signals = [AbortSignal.timeout(deadline - policyStart), ...(options.signal ? [options.signal] : [])];
      turn = await policy.complete({
        episodeId, role, messages: [...messages], tools: specs, seed: turnSeed(seed, turns), maxTokens: budget.remaining(), signal: AbortSignal.any(signals),
      });
    } catch (error) {
      return finish(ended() ?? (isEngineError(error) ? 'infrastructure-error' : 'policy-error'), error);
    }
    const policyMs = Date.now() - policyStart;
    turns++;
    usage.promptTokens += turn.usage.promptTokens;
    usage.completionTokens += turn.usage.completionTokens;
    messages.push(turn.message);
    budget.afterTurn(turn.usage, turn.message);

    const record = (done: DispatchedTurn, toolMs: number) =>
      trajectory?.write({
        type: 'step', turn: turns, assistant: turn.message, toolCall: done.call, observations: done.messages,
        isError: done.result?.isError, formatError: done.formatError, submitted: done.result?.submission !== undefined,
        finishReason: turn.finishReason, usage: turn.usage, policyVersion: turn.sample?.policyVersion ?? policy.version,
        timings: { policyMs, toolMs }, sample: turn.sample,
      });

    // The paper's ending: once something is submitted, a turn without a tool call is the summary.
    // Policies flag every call-less turn as a format error, so a botched call here ends it too: the
    // submission is what counts either way.
    if (submission && turn.toolCalls.length === 0) {
      await record({ messages: [] }, 0);
      return finish('submitted');
    }
    // A policy that says it is done without having submitted gave up: that is its answer, not a botched call.
    if (!submission && turn.gaveUp !== undefined && turn.toolCalls.length === 0) {
      await record({ messages: [] }, 0);
      return finish('gave-up', undefined, turn.gaveUp);
    }

    const toolStart = Date.now();
    let done: DispatchedTurn;
    try {
      const commandTimeoutMs = Math.max(1000, Math.min(limits.commandTimeoutMs, deadline - toolStart));
      done = await dispatchTurn(turn, tools, { sandbox, role, commandTimeoutMs });
    } catch (error) {
      await record({ messages: [], call: turn.toolCalls[0] }, Date.now() - toolStart);
      return finish(isEngineError(error) ? 'infrastructure-error' : 'tool-error', error);
    }
    if (done.result?.submission) submission = done.result.submission;
    streak = done.formatError === undefined ? 0 : streak + 1;
    if (done.formatError !== undefined) formatErrors++;

    budget.add(done.messages);
    const footer = `\n\n[${limits.maxTurns - turns} turns and ~${budget.remaining()} tokens left]`;
    const last = done.messages.at(-1)!;
    done.messages[done.messages.length - 1] = { ...last, content: last.content + footer };
    budget.add([{ role: 'user', content: footer }]);
    messages.push(...done.messages);
    await record(done, Date.now() - toolStart);

    if (streak >= limits.maxFormatErrorStreak) return finish('format-errors');
  }
}

function describeError(error: unknown): NonNullable<AgentExit['error']> {
  return isEngineError(error) ? { message: error.message, code: error.code, retryable: error.retryable } : { message: errorMessage(error) };
}

/** A different sampling seed per turn (the episode's seed on turn 0): equal seeds would make every turn's draw the same. */
function turnSeed(seed: number | undefined, turn: number): number | undefined {
  return seed === undefined ? undefined : seed + turn;
}
