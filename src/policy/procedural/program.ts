import type { AgentRole, ToolSpec } from '../policy.js';
import type { SeededRng } from '../../util/seeded-rng.js';
import type { Observation } from './observation.js';

/**
 * The plumbing shared by the procedural Injector and Solver: a role is played by a *program*, an
 * async generator that yields one tool call at a time and is resumed with what that call printed.
 *
 *     async function* program(ctx) {
 *       const listing = yield bash('git ls-files', 'see what the repo holds');
 *       if (!listing.ok) ...
 *       yield submit({ ... }, 'hand in the artifact');
 *       return 'summary of what I did';
 *     }
 *
 * The dispatcher (ProceduralPolicy) turns each yielded {@link ProgramStep} into one assistant turn
 * with exactly one tool call, and the returned string into the final call-less summary turn.
 */

/** One tool call a program wants made, with the one-line rationale shown as the assistant text. */
export type ProgramStep =
  | { tool: 'bash'; args: { command: string }; rationale: string }
  | { tool: 'edit'; args: { path: string; search: string; replace: string }; rationale: string }
  | { tool: 'create'; args: { path: string; content: string }; rationale: string }
  | { tool: 'submit'; args: Record<string, string>; rationale: string };

/** What a program knows about its episode when it starts. */
export interface ProgramContext {
  episodeId: string;
  role: AgentRole;
  /** The episode's seed (request seed, else the policy's, else 0). */
  seed: number;
  /** Seeded from {@link ProgramContext.seed}; fork it per decision so choices stay independent. */
  rng: SeededRng;
  /** The rendered prompts of the episode (strategy, thresholds and the Solver's task live here). */
  systemPrompt: string;
  userPrompt: string;
  /** The tools the loop offers (names only matter: bash, edit, create, submit). */
  tools: readonly ToolSpec[];
  /** Updated before every resume from the loop's footer ("[N turns and ~T tokens left]"); null until known. */
  budget: { turnsLeft: number | null; tokensLeft: number | null };
  /** Where the program adds the wall time of its phases, ms (the policy hands it out after the episode); absent: not timed. */
  phaseMs?: Partial<Record<string, number>>;
  /** State the policy keeps across the episodes of a run (the Injector's discovery memos, see DiscoveryMemo); absent: none kept. */
  memos?: Map<string, unknown>;
}

/** A running program: yields steps, is resumed with their observations, returns its summary. */
export type Program = AsyncGenerator<ProgramStep, string, Observation>;

/** A piece of a program, delegated to with `yield*`: yields steps, returns a `T`. */
export type Steps<T> = AsyncGenerator<ProgramStep, T, Observation>;

/** Builds the program of one episode. */
export type ProgramFactory = (ctx: ProgramContext) => Program;

/** A `bash` call. */
export function bash(command: string, rationale: string): ProgramStep {
  return { tool: 'bash', args: { command }, rationale };
}

/** An `edit` call: `search` must be whole lines occurring exactly once in the file. */
export function edit(path: string, search: string, replace: string, rationale: string): ProgramStep {
  return { tool: 'edit', args: { path, search, replace }, rationale };
}

/** A `create` call (the file must not exist yet). */
export function create(path: string, content: string, rationale: string): ProgramStep {
  return { tool: 'create', args: { path, content }, rationale };
}

/** A `submit` call: the role's submit arguments (Injector: five paths; Solver: `patch`). */
export function submit(args: Record<string, string>, rationale: string): ProgramStep {
  return { tool: 'submit', args, rationale };
}
