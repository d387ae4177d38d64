import { resolveEndpoint } from '../../policy/endpoint.js';
import { describeServerFacts } from '../../policy/preflight/describe-server-facts.js';
import { runPreflight } from '../../policy/preflight/run-preflight.js';
import type { ToolProtocolChoice } from '../../policy/preflight/server-facts.js';
import { firstPromptTokens } from '../../roles/first-prompt-tokens.js';
import { errorMessage } from '../../util/engine-error.js';
import type { DoctorCheck } from './doctor.js';

/** The model-server flags of `ssr doctor`. */
export interface DoctorServerFlags {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  policy?: 'openai' | 'tokens';
  toolProtocol?: ToolProtocolChoice;
  maxContext?: number;
}

/**
 * `ssr doctor --base-url URL`: the run's own preflight against the server, as doctor lines: what it
 * serves (model, context, how tool calls travel), each note, or the one line that says what is wrong.
 */
export async function serverChecks(flags: DoctorServerFlags): Promise<DoctorCheck[]> {
  const mode = flags.policy === 'tokens' ? 'tokens' : 'chat';
  try {
    const facts = await runPreflight({
      endpoint: resolveEndpoint({ baseUrl: flags.baseUrl, apiKey: flags.apiKey }),
      mode,
      model: flags.model,
      toolProtocol: flags.toolProtocol,
      maxContext: flags.maxContext,
      promptTokens: firstPromptTokens(),
    });
    return [
      { name: 'model server', status: 'ok', detail: describeServerFacts(facts, mode) },
      ...facts.notes.map((note): DoctorCheck => ({ name: 'model server', status: 'ok', detail: note })),
    ];
  } catch (error) {
    return [{ name: 'model server', status: 'failed', detail: errorMessage(error) }];
  }
}
