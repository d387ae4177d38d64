import type { Steps } from '../program.js';
import { memoOf, restoreDiscovery, type DiscoveryMemo, type DiscoveryMemos } from './discovery-memo.js';

/** A discovery under way in one episode, under `in-flight <key>` in the memos: settles when it ends (memo kept or not). */
interface InFlight {
  done: Promise<void>;
}

/** How one episode's discovery of a memo key is shared with the run's other episodes. */
export interface SharedDiscoveryOptions {
  /** The policy's memos; absent: nothing is shared. */
  memos: DiscoveryMemos | undefined;
  /** The discovery's memo key (see memoKey); null: nothing is shared. */
  key: string | null;
  /** Longest wait for another episode's discovery, ms: past it (that episode stuck or gone) this one discovers itself. */
  waitCapMs: number;
  /** Told how long this episode waited for another's discovery, ms (its `memo` phase). */
  onWait?: (ms: number) => void;
}

/**
 * One discovery per memo key and run, also for episodes that start together: a memo stored under
 * the key is restored; while another episode is discovering the same key, this one waits for it
 * and restores what it keeps, instead of running the same clean and traced runs beside it;
 * otherwise this one discovers, marked as under way until `discovery` ends however it ends (kept,
 * failed, or the episode cut off), so the waiting ones then restore its memo or, when it kept none,
 * discover themselves. `discovery` gets the memo it was restored from, or null to discover (and keep).
 */
export async function* sharedDiscovery<T>(options: SharedDiscoveryOptions, discovery: (memo: DiscoveryMemo | null) => Steps<T>): Steps<T> {
  const { memos, key } = options;
  if (!memos || key === null) return yield* discovery(null);
  let memo = memoOf(memos, key);
  const pending = memo === null ? (memos.get(inFlightKey(key)) as InFlight | undefined) : undefined;
  if (pending) {
    const started = Date.now();
    await settledWithin(pending.done, options.waitCapMs);
    options.onWait?.(Date.now() - started);
    memo = memoOf(memos, key);
  }
  if (memo !== null && (yield* restoreDiscovery(memo))) return yield* discovery(memo);
  const release = claim(memos, key);
  try {
    return yield* discovery(null);
  } finally {
    release();
  }
}

/**
 * How an episode's discovery is shared: another episode's discovery of the same key is waited for
 * at most as long as its clean and traced runs may take (`maxRunS` each), plus a minute for the rest.
 */
export function sharing(options: { memos?: DiscoveryMemos; maxRunS: number; onWait?: (ms: number) => void }, key: string | null): SharedDiscoveryOptions {
  return { memos: options.memos, key, waitCapMs: (2 * options.maxRunS + 60) * 1000, ...(options.onWait ? { onWait: options.onWait } : {}) };
}

function inFlightKey(key: string): string {
  return `in-flight ${key}`;
}

// Mark `key` as being discovered; the returned function settles and removes the mark (a no-op when
// another episode holds it: this one only waited past the cap).
function claim(memos: DiscoveryMemos, key: string): () => void {
  const at = inFlightKey(key);
  if (memos.has(at)) return () => undefined;
  let settle = (): void => undefined;
  const entry: InFlight = { done: new Promise<void>((resolve) => (settle = resolve)) };
  memos.set(at, entry);
  return () => {
    if (memos.get(at) === entry) memos.delete(at);
    settle();
  };
}

async function settledWithin(done: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    // Not unref'd: while every other episode waits here, this timer is what keeps the run alive
    // (an unref'd one let Node exit 0 mid-run, with no summary, when the discovery never settled).
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([done, cap]);
  } finally {
    clearTimeout(timer);
  }
}
