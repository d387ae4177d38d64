import type { ExitStatus } from '../agent/agent-exit.js';
import type { TrajectoryStep } from '../agent/trajectory-record.js';
import { sweBenchInstanceId } from './export-swe-bench.js';
import type { SolverAttempt } from './read-solver-attempts.js';

/**
 * mini-swe-agent's trajectory format `mini-swe-agent-1.1` (its docs, usage/output_files.md: a
 * `.traj.json` with `info` {exit_status, submission, model_stats, config}, `messages` in OpenAI
 * chat format with an `extra` field, and `trajectory_format`). ssr's agent calls tools natively,
 * so messages follow mini-swe-agent's tool-call variant: assistant messages carry `tool_calls`,
 * observations are `role: "tool"` with `tool_call_id`; the last message is the exit message
 * (`role: "user"`, empty content, `extra` {exit_status, submission}).
 */
export interface MiniSweAgentTrajectory {
  info: {
    exit_status: string;
    submission: string;
    model_stats: { instance_cost: number; api_calls: number };
    config: { agent: Record<string, unknown>; agent_type: string; model: Record<string, unknown>; model_type: string };
    /** ssr's own record of the attempt. */
    ssr: { instance_id: string; attempt_id: string; exit_status: ExitStatus; status: string; reward: number | null; turns: number };
  };
  messages: Array<Record<string, unknown>>;
  trajectory_format: 'mini-swe-agent-1.1';
}

/** mini-swe-agent's exit statuses are its exception names (Submitted, LimitsExceeded, TimeExceeded, FormatError, UserInterruption). */
const EXIT_STATUS: Partial<Record<ExitStatus, string>> = {
  submitted: 'Submitted',
  'turn-limit': 'LimitsExceeded',
  'context-limit': 'LimitsExceeded',
  'time-limit': 'TimeExceeded',
  'format-errors': 'FormatError',
  cancelled: 'UserInterruption',
};

function stepMessages(step: TrajectoryStep): Array<Record<string, unknown>> {
  const { assistant } = step;
  const calls = assistant.role === 'assistant' ? (assistant.toolCalls ?? []) : [];
  const extra = { finish_reason: step.finishReason, usage: step.usage, policy_version: step.policyVersion, ...(step.formatError ? { format_error: step.formatError } : {}) };
  const message: Record<string, unknown> = { role: 'assistant', content: assistant.content, extra };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) } }));
  }
  const observations = step.observations.map((observation) =>
    observation.role === 'tool' ? { role: 'tool', content: observation.content, tool_call_id: observation.toolCallId, name: observation.name } : { role: observation.role, content: observation.content },
  );
  return [message, ...observations];
}

/** A Solver attempt as a mini-swe-agent trajectory. */
export function toMiniSweAgentTrajectory({ bug, attempt, trajectory }: SolverAttempt): MiniSweAgentTrajectory {
  const { header, steps, exit } = trajectory;
  const exitStatus: ExitStatus = exit?.exitStatus ?? 'cancelled';
  const submission = exit?.submission?.type === 'solver' ? exit.submission.patch : '';
  const status = EXIT_STATUS[exitStatus] ?? exitStatus;
  return {
    info: {
      exit_status: status,
      submission,
      model_stats: { instance_cost: 0, api_calls: exit?.turns ?? steps.length },
      config: {
        agent: { limits: header.limits, tools: header.tools.map((tool) => tool.name) },
        agent_type: 'ssr.solver',
        model: { model_name: header.policy.name, policy_version: header.policy.version },
        model_type: 'ssr.policy',
      },
      ssr: { instance_id: sweBenchInstanceId(bug), attempt_id: attempt.id, exit_status: exitStatus, status: attempt.status, reward: attempt.reward, turns: exit?.turns ?? steps.length },
    },
    messages: [
      { role: 'system', content: header.systemPrompt },
      { role: 'user', content: header.userPrompt },
      ...steps.flatMap(stepMessages),
      { role: 'user', content: '', extra: { exit_status: status, submission } },
    ],
    trajectory_format: 'mini-swe-agent-1.1',
  };
}
