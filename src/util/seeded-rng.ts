import { EngineError } from './engine-error.js';

/** A small deterministic PRNG: the same seed always gives the same sequence. Not for secrets. */
export interface SeededRng {
  /** The 32-bit state it started from (string seeds are hashed to it). */
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n); `n` must be a positive integer. */
  int(n: number): number;
  /** One element, uniformly; throws on an empty array. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates); the input is left as is. */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent generator derived from this one's seed and a label (not from its position). */
  fork(label: string): SeededRng;
}

/** mulberry32 over a 32-bit state; string seeds go through FNV-1a, every seed through murmur3's finaliser. */
export function seededRng(seed: number | string): SeededRng {
  if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
    throw new EngineError('usage', `RNG seed must be an integer or a string, got ${seed}`);
  }
  // Neighbouring seeds (1, 2, 3...) give correlated first draws in plain mulberry32; a finaliser
  // spreads them over the whole state first.
  const initial = fmix32(typeof seed === 'string' ? fnv1a(seed) : seed >>> 0);
  let state = initial;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => {
    if (!Number.isSafeInteger(n) || n <= 0) throw new EngineError('usage', `rng.int needs a positive integer, got ${n}`);
    return Math.floor(next() * n);
  };
  return {
    seed: initial,
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new EngineError('usage', 'rng.pick on an empty array');
      return items[int(items.length)] as T;
    },
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
    fork: (label: string) => seededRng(`${initial}:${label}`),
  };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
