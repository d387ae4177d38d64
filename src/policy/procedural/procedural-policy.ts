import type { AgentRole, Policy, PolicyRequest, PolicyTurn, ToolCall } from '../policy.js';
import { seededRng } from '../../util/seeded-rng.js';
import { createInjectorProgram } from './injector/injector-program.js';
import { lastObservation, type Observation } from './observation.js';
import type { Program, ProgramContext, ProgramFactory, ProgramStep } from './program.js';
import { createSolverProgram } from './solver/solver-program.js';

export interface ProceduralPolicyOptions {
  /** Seed of episodes whose request carries none (default 0). */
  seed?: number;
  /** Replace a role's program (tests); default: the procedural Injector and Solver. */
  programs?: Partial<Record<AgentRole, ProgramFactory>>;
}

interface Episode {
  program: Program;
  ctx: ProgramContext;
  calls: number;
  /** Whether the program has called `submit`: its summary without one is a give-up. */
  submitted: boolean;
  /** The program's closing summary, once it returned. */
  summary?: string;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };
const PROGRAMS: Record<AgentRole, ProgramFactory> = { injector: createInjectorProgram, solver: createSolverProgram };

/**
 * The model-free policy (issue 5): plays either role through the same tools and loop as an LLM.
 * Each episode runs a program (see `program.ts`); every `complete` resumes it with the last
 * observation and answers with the one tool call it yields next, and once it returns, with its
 * summary and no tool call (which ends a submitted episode). Deterministic for a given seed.
 */
export class ProceduralPolicy implements Policy {
  readonly name = 'procedural';
  readonly version = 0;
  private readonly episodes = new Map<string, Episode>();
  /** Phase times of ended episodes that timed any, until taken (takePhaseTimes). */
  private readonly phaseTimes = new Map<string, Partial<Record<string, number>>>();
  /** Shared by every episode of this policy (one run): what a program keeps for the next ones. */
  private readonly memos = new Map<string, unknown>();
  private readonly seed: number;
  private readonly programs: Record<AgentRole, ProgramFactory>;

  constructor(options: ProceduralPolicyOptions = {}) {
    this.seed = options.seed ?? 0;
    this.programs = { ...PROGRAMS, ...options.programs };
  }

  async complete(request: PolicyRequest): Promise<PolicyTurn> {
    let episode = this.episodes.get(request.episodeId);
    let next: IteratorResult<ProgramStep, string>;
    if (!episode) {
      episode = this.start(request);
      this.episodes.set(request.episodeId, episode);
      next = await episode.program.next();
    } else if (episode.summary !== undefined) {
      return summaryTurn(episode.summary, !episode.submitted);
    } else {
      const observation = lastObservation(request.messages) ?? EMPTY_OBSERVATION;
      episode.ctx.budget.turnsLeft = observation.turnsLeft ?? episode.ctx.budget.turnsLeft;
      episode.ctx.budget.tokensLeft = observation.tokensLeft ?? episode.ctx.budget.tokensLeft;
      next = await episode.program.next(observation);
    }
    if (next.done) {
      episode.summary = next.value;
      return summaryTurn(next.value, !episode.submitted);
    }
    episode.calls += 1;
    if (next.value.tool === 'submit') episode.submitted = true;
    return toolTurn(next.value, `procedural_${episode.calls}`);
  }

  endEpisode(episodeId: string): void {
    const episode = this.episodes.get(episodeId);
    this.episodes.delete(episodeId);
    const times = episode?.ctx.phaseMs;
    if (times && Object.keys(times).length > 0) this.phaseTimes.set(episodeId, times);
    // Let a program that was cut off by a limit run its `finally` blocks.
    if (episode && episode.summary === undefined) void episode.program.return('ended by the loop').catch(() => undefined);
  }

  takePhaseTimes(episodeId: string): Partial<Record<string, number>> | undefined {
    const times = this.phaseTimes.get(episodeId);
    this.phaseTimes.delete(episodeId);
    return times;
  }

  private start(request: PolicyRequest): Episode {
    const seed = request.seed ?? this.seed;
    const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const ctx: ProgramContext = {
      episodeId: request.episodeId,
      role: request.role,
      seed,
      rng: seededRng(seed),
      systemPrompt: system,
      userPrompt: user,
      tools: request.tools,
      budget: { turnsLeft: null, tokensLeft: null },
      phaseMs: {},
      memos: this.memos,
    };
    return { program: this.programs[request.role](ctx), ctx, calls: 0, submitted: false };
  }
}

const EMPTY_OBSERVATION: Observation = {
  tool: null, text: '', ok: false, exitCode: null, timedOut: false, turnsLeft: null, tokensLeft: null, raw: '',
};

function toolTurn(step: ProgramStep, id: string): PolicyTurn {
  const call: ToolCall = { id, name: step.tool, arguments: step.args };
  return {
    message: { role: 'assistant', content: step.rationale, toolCalls: [call] },
    toolCalls: [call],
    usage: NO_USAGE,
    finishReason: 'tool_calls',
  };
}

function summaryTurn(summary: string, gaveUp: boolean): PolicyTurn {
  return { message: { role: 'assistant', content: summary }, toolCalls: [], usage: NO_USAGE, finishReason: 'stop', ...(gaveUp ? { gaveUp: summary } : {}) };
}
