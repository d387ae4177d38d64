import { agentLimitsSchema } from '../../../src/agent/agent-limits.js';
import type { Trajectory } from '../../../src/agent/trajectory.js';
import { TRAJECTORY_FORMAT, type TrajectoryExit, type TrajectoryHeader, type TrajectoryStep } from '../../../src/agent/trajectory-record.js';
import type { ExitStatus } from '../../../src/agent/agent-exit.js';

export const header = (overrides: Partial<TrajectoryHeader> = {}): TrajectoryHeader => ({
  type: 'header', format: TRAJECTORY_FORMAT, episodeId: 'ep-1.solve-0', role: 'solver', policy: { name: 'tokens:toy', version: 4 },
  limits: agentLimitsSchema.parse({}), systemPrompt: 'You fix bugs.', userPrompt: 'Make these tests pass.',
  tools: [{ name: 'bash', description: 'run a command', parameters: { type: 'object' } }], startedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

/** Turn `turn` of a chained token episode: each prompt extends the previous prompt + completion. */
export const tokenSample = (turn: number, policyVersion = 4) => {
  const prompt = [1, 2];
  for (let t = 1; t < turn; t++) prompt.push(10 * t, 10 * t + 1, 90 + t);
  return { promptTokenIds: prompt, completionTokenIds: [10 * turn, 10 * turn + 1], completionLogprobs: [-0.1 * turn, -0.2], policyVersion };
};

export const step = (turn: number, overrides: Partial<TrajectoryStep> = {}): TrajectoryStep => ({
  type: 'step', turn,
  assistant: { role: 'assistant', content: `turn ${turn}`, toolCalls: [{ id: `c${turn}`, name: 'bash', arguments: { command: 'ls' } }] },
  toolCall: { id: `c${turn}`, name: 'bash', arguments: { command: 'ls' } },
  observations: [{ role: 'tool', content: `out ${turn}`, toolCallId: `c${turn}`, name: 'bash' }],
  submitted: false, finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 2 }, policyVersion: 4,
  timings: { policyMs: 1, toolMs: 1 }, sample: tokenSample(turn),
  ...overrides,
});

export const exit = (exitStatus: ExitStatus = 'submitted'): TrajectoryExit => ({
  type: 'exit', exitStatus, submission: null, turns: 2, usage: { promptTokens: 20, completionTokens: 4 }, contextTokens: 12, formatErrors: 0, durationMs: 5,
});

export function trajectory(overrides: Partial<Trajectory> = {}): Trajectory {
  return { header: header(), steps: [step(1), step(2)], exit: exit(), truncated: false, ...overrides };
}
