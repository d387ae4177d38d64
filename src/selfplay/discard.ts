import type { AgentExit } from '../agent/agent-exit.js';
import { isEngineError } from '../util/engine-error.js';

/**
 * Why an episode (or attempt) was discarded: infrastructure, never the model. `category` is short
 * and stable (`<stage>:<code>`, e.g. `inject:docker-unavailable`): metrics count by it; `detail`
 * is the message.
 */
export interface Discard {
  category: string;
  detail: string;
  /** The EngineError code, when one was thrown or reported. */
  code?: string;
}

/** The reason as stored in episodes.jsonl: `<category>: <detail>`. */
export function discardText(discard: Discard): string {
  return `${discard.category}: ${discard.detail.split('\n')[0]!.slice(0, 500)}`;
}

/** The category of a stored reason (what metrics count). */
export function discardCategory(text: string): string {
  const at = text.indexOf(': ');
  return at === -1 ? text : text.slice(0, at);
}

/** A thrown EngineError as a discard of `stage`. @throws what is not an EngineError (a bug is not infrastructure). */
export function discardFromError(stage: string, error: unknown): Discard {
  if (!isEngineError(error)) throw error;
  return { category: `${stage}:${error.code}`, detail: error.message, code: error.code };
}

/** An agent run that ended on the infrastructure as a discard of `stage`. */
export function discardFromExit(stage: string, exit: AgentExit): Discard {
  const code = exit.error?.code;
  return { category: `${stage}:${code ?? exit.exitStatus}`, detail: `the agent ended with ${exit.exitStatus}${exit.error ? `: ${exit.error.message}` : ''}`, code };
}

/** The discard of work cut off because the run is stopping. */
export function engineStopped(reason: string): Discard {
  return { category: 'engine-stopped', detail: `the run stopped: ${reason}` };
}
