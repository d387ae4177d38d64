import { EngineError } from '../util/engine-error.js';

/** A failed attempt: whether another attempt may help, and the error to throw once attempts run out. */
export interface AttemptFailure {
  status: 'failed';
  retryable: boolean;
  retryAfterMs?: number;
  toError(attempts: number): EngineError;
}

export type FailureEvidence =
  | { type: 'http'; url: string; status: number; body: string; retryAfter: string | null }
  | { type: 'network'; url: string; error: unknown }
  | { type: 'timeout'; url: string; timeoutMs: number }
  | { type: 'bad-json'; url: string; body: string };

/** Phrases servers (vLLM, SGLang, OpenAI, llama.cpp, TGI) use when a prompt does not fit the model. */
const CONTEXT_OVERFLOW = /context length|maximum context|context window|too many tokens|maximum model length|max_model_len|prompt is too long|exceeds the (?:model'?s? )?(?:maximum|context)/i;

const HINTS: Record<number, string> = {
  401: ' (check --api-key / OPENAI_API_KEY)',
  403: ' (check --api-key / OPENAI_API_KEY)',
  404: ' (check --base-url and --model)',
};

/** Decides retry or not (connection errors, timeouts, 429 and 5xx retry; other 4xx do not) and words the error. */
export function classifyFailure(evidence: FailureEvidence): AttemptFailure {
  switch (evidence.type) {
    case 'network': {
      const code = networkCode(evidence.error);
      return retryable((n) => `cannot reach ${evidence.url}: ${code} after ${attemptsText(n)}`);
    }
    case 'timeout':
      return retryable((n) => `request to ${evidence.url} timed out after ${evidence.timeoutMs / 1000} s (${attemptsText(n)})`);
    case 'bad-json':
      if (/^\s*<(?:!doctype|html|head|body)/i.test(evidence.body)) {
        // A web UI, a proxy's login page or the wrong port: say so rather than quote a JSON parse error.
        const title = /<title>([^<]*)<\/title>/i.exec(evidence.body)?.[1]?.trim();
        return final('policy-unavailable', `HTML instead of JSON from ${evidence.url}${title ? ` (page "${title}")` : ''}: expected an OpenAI-compatible API (check --base-url)`);
      }
      return final('policy-unavailable', `invalid JSON from ${evidence.url}: ${head(evidence.body)}`);
    case 'http': {
      const { status, url, body } = evidence;
      const what = `HTTP ${status} from ${url}: ${head(body)}`;
      if (status >= 400 && status < 500 && CONTEXT_OVERFLOW.test(body)) return final('policy-context-overflow', `prompt does not fit the model's context: ${what}`, evidence);
      if (status === 429 || status >= 500) {
        return { ...retryable((n) => `${what} (after ${attemptsText(n)})`), retryAfterMs: parseRetryAfter(evidence.retryAfter) };
      }
      return final('policy-unavailable', `${what}${HINTS[status] ?? ''}`, evidence);
    }
  }
}

function retryable(message: (attempts: number) => string): AttemptFailure {
  return { status: 'failed', retryable: true, toError: (n) => new EngineError('policy-unavailable', message(n), { retryable: true }) };
}

/** `evidence` rides along as the error's cause, so a caller (the preflight) can read the status and body. */
function final(code: 'policy-unavailable' | 'policy-context-overflow', message: string, evidence?: FailureEvidence): AttemptFailure {
  return { status: 'failed', retryable: false, toError: () => new EngineError(code, message, { retryable: false, cause: evidence }) };
}

/** The HTTP status and body behind an error the client threw for a 4xx answer, if that is what it was. */
export function httpRejection(error: unknown): { status: number; body: string } | undefined {
  const cause = (error as { cause?: FailureEvidence })?.cause;
  return cause?.type === 'http' ? { status: cause.status, body: cause.body } : undefined;
}

function attemptsText(n: number): string {
  return n === 1 ? '1 attempt' : `${n} attempts`;
}

/** undici wraps the system error: `TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })`. */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause as { code?: string; message?: string; errors?: Array<{ code?: string }> } | undefined;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function head(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
