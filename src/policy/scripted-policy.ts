import type { FinishReason, Policy, PolicyRequest, PolicyTurn, TokenSample, TokenUsage } from './policy.js';
import { parseTextToolCall } from './text-protocol/parse-text-tool-call.js';
import { EngineError } from '../util/engine-error.js';

/**
 * One scripted assistant turn. `text` is read with the text protocol exactly as a text-mode server's
 * reply would be (so format errors are real); otherwise `content` and/or `toolCall` are used as is,
 * and a turn without a tool call gets the same `formatError` a real policy would report.
 */
export type ScriptedTurn =
  | { text: string; usage?: TokenUsage; sample?: TokenSample }
  | {
      content?: string;
      toolCall?: { name: string; arguments: unknown; id?: string };
      formatError?: string;
      finishReason?: FinishReason;
      usage?: TokenUsage;
      sample?: TokenSample;
    };

/** A step of the script: a turn, a function of the request (returning a turn or a full PolicyTurn), or an Error to throw. */
export type ScriptedStep = ScriptedTurn | Error | ((request: PolicyRequest) => ScriptedTurn | PolicyTurn | Promise<ScriptedTurn | PolicyTurn>);

/** A request as the scripted policy saw it (messages copied at call time; no signal). */
export type RecordedRequest = Omit<PolicyRequest, 'signal'>;

/**
 * The test double of every agent test: replays a fixed script in order and records what it was
 * asked. Running out of script is an error that names the request, not a silent default.
 */
export class ScriptedPolicy implements Policy {
  readonly name: string;
  version: number;
  readonly requests: RecordedRequest[] = [];
  readonly endedEpisodes: string[] = [];
  private readonly steps: ScriptedStep[];

  constructor(steps: ScriptedStep[], options: { name?: string; version?: number } = {}) {
    this.steps = [...steps];
    this.name = options.name ?? 'scripted';
    this.version = options.version ?? 0;
  }

  /** Steps not yet played. */
  get remaining(): number {
    return this.steps.length;
  }

  async complete(request: PolicyRequest): Promise<PolicyTurn> {
    const { signal: _signal, ...rest } = request;
    this.requests.push(structuredClone(rest));
    const step = this.steps.shift();
    if (step === undefined) {
      const last = request.messages.at(-1);
      const lastText = last ? `${last.role}: ${JSON.stringify(last.content.slice(0, 120))}` : 'none';
      throw new EngineError(
        'internal',
        `ScriptedPolicy: the script has no turn left for request ${this.requests.length} (episode ${request.episodeId}, last message ${lastText})`,
      );
    }
    if (step instanceof Error) throw step;
    const turn = typeof step === 'function' ? await step(request) : step;
    if ('message' in turn) return turn;
    return toPolicyTurn(turn, request, `call_${request.messages.filter((message) => message.role === 'assistant').length}`);
  }

  endEpisode(episodeId: string): void {
    this.endedEpisodes.push(episodeId);
  }
}

function toPolicyTurn(turn: ScriptedTurn, request: PolicyRequest, id: string): PolicyTurn {
  const promptTokens = Math.ceil(request.messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
  const extras = { ...(turn.sample ? { sample: turn.sample } : {}) };
  if ('text' in turn) {
    const usage = turn.usage ?? { promptTokens, completionTokens: Math.ceil(turn.text.length / 4) };
    const parsed = parseTextToolCall(turn.text, { id });
    if (parsed.status === 'error') {
      return { message: { role: 'assistant', content: turn.text }, toolCalls: [], usage, finishReason: 'stop', formatError: parsed.formatError, ...extras };
    }
    return { message: { role: 'assistant', content: parsed.content, toolCalls: [parsed.call] }, toolCalls: [parsed.call], usage, finishReason: 'tool_calls', ...extras };
  }
  const content = turn.content ?? '';
  const usage = turn.usage ?? { promptTokens, completionTokens: Math.ceil((content.length + JSON.stringify(turn.toolCall ?? '').length) / 4) };
  if (turn.toolCall && turn.formatError === undefined) {
    const call = { id: turn.toolCall.id ?? id, name: turn.toolCall.name, arguments: turn.toolCall.arguments };
    return { message: { role: 'assistant', content, toolCalls: [call] }, toolCalls: [call], usage, finishReason: turn.finishReason ?? 'tool_calls', ...extras };
  }
  const formatError = turn.formatError ?? 'No tool call found. End your reply with exactly one tool call.';
  return { message: { role: 'assistant', content }, toolCalls: [], usage, finishReason: turn.finishReason ?? 'stop', formatError, ...extras };
}
