import { describe, expect, it } from 'vitest';
import { overlapMs } from '../../../src/training/overlap.js';

describe('overlapMs', () => {
  it.each([
    ['none', { start: 10, end: 20 }, [{ start: 0, end: 10 }, { start: 20, end: 30 }], 0],
    ['inside', { start: 10, end: 20 }, [{ start: 12, end: 15 }], 3],
    ['covering', { start: 10, end: 20 }, [{ start: 0, end: 30 }], 10],
    ['two steps at once count once', { start: 10, end: 20 }, [{ start: 5, end: 15 }, { start: 12, end: 18 }], 8],
    ['disjoint pieces add up', { start: 0, end: 100 }, [{ start: 10, end: 20 }, { start: 50, end: 60 }], 20],
    ['an open interval ends now', { start: 10, end: 20 }, [{ start: 15, end: null }], 5],
    ['an open span ends now', { start: 10, end: null }, [{ start: 15, end: 40 }], 15],
  ] as const)('%s', (_name, span, others, expected) => {
    expect(overlapMs(span, others, 30)).toBe(expected);
  });
});
