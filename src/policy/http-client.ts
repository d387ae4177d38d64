import { classifyFailure, type AttemptFailure } from './http-failure.js';

export interface HttpClientOptions {
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Per attempt, including reading the body. Default 300 s (long generations are slow). */
  requestTimeoutMs?: number;
  /** Retries after the first attempt on connection errors, timeouts, 429 and 5xx. Default 4. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 1000 ms. */
  retryBaseDelayMs?: number;
  /** Cap of one backoff delay (also caps a server's Retry-After). Default 20 s. */
  retryMaxDelayMs?: number;
}

const DEFAULTS = { requestTimeoutMs: 300_000, maxRetries: 4, retryBaseDelayMs: 1_000, retryMaxDelayMs: 20_000 };

/**
 * JSON over HTTP with bounded retries. Every failure ends as an EngineError with a specific message
 * (`policy-unavailable`, or `policy-context-overflow` for a prompt the model cannot take); an abort
 * through the caller's signal rethrows the signal's reason untouched.
 */
export class JsonHttpClient {
  private readonly options: typeof DEFAULTS & { apiKey?: string };

  constructor(options: HttpClientOptions = {}) {
    const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    this.options = { ...DEFAULTS, ...defined };
  }

  postJson(url: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.request(url, { method: 'POST', body: JSON.stringify(body) }, signal);
  }

  getJson(url: string, signal?: AbortSignal): Promise<unknown> {
    return this.request(url, { method: 'GET' }, signal);
  }

  private async request(url: string, init: { method: string; body?: string }, signal?: AbortSignal): Promise<unknown> {
    const attempts = this.options.maxRetries + 1;
    let failure: AttemptFailure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(this.backoffMs(attempt - 1, failure?.retryAfterMs), signal);
      const outcome = await this.attempt(url, init, signal);
      if (outcome.status === 'ok') return outcome.body;
      failure = outcome;
      if (!failure.retryable) break;
    }
    throw failure!.toError(failure!.retryable ? attempts : 1);
  }

  private async attempt(url: string, init: { method: string; body?: string }, signal?: AbortSignal): Promise<{ status: 'ok'; body: unknown } | AttemptFailure> {
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    try {
      const response = await fetch(url, { ...init, headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      const text = await response.text();
      if (!response.ok) return classifyFailure({ type: 'http', url, status: response.status, body: text, retryAfter: response.headers.get('retry-after') });
      try {
        return { status: 'ok', body: JSON.parse(text) };
      } catch {
        return classifyFailure({ type: 'bad-json', url, body: text });
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) return classifyFailure({ type: 'timeout', url, timeoutMs: this.options.requestTimeoutMs });
      return classifyFailure({ type: 'network', url, error });
    }
  }

  private backoffMs(retry: number, retryAfterMs: number | undefined): number {
    const exponential = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (retry - 1));
    // Half fixed, half random: spreads the retries of many parallel episodes hitting one server.
    const jittered = exponential / 2 + (Math.random() * exponential) / 2;
    return Math.max(jittered, Math.min(retryAfterMs ?? 0, this.options.retryMaxDelayMs));
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
