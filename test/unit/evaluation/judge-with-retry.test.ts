import { describe, expect, it } from 'vitest';
import { judgeWithRetry, type JudgeOutcome } from '../../../src/evaluation/judge-with-retry.js';

describe('judgeWithRetry', () => {
  it('tries an instance infrastructure kept from a verdict once more, and only once', async () => {
    // a: judged at once; b: Docker hiccup then judged; c: fails twice; d: an attempt discarded twice.
    const script: Record<string, JudgeOutcome[]> = { a: ['judged'], b: ['not-judged', 'judged'], c: ['not-judged', 'not-judged'], d: ['incomplete', 'incomplete'] };
    const calls: string[] = [];
    const counts = await judgeWithRetry(Object.keys(script), async (item, index, retry) => {
      calls.push(`${item}${index}${retry ? ' retry' : ''}`);
      return script[item]!.shift()!;
    }, (item) => item);
    expect(calls).toEqual(['a0', 'b1', 'c2', 'd3', 'b1 retry', 'c2 retry', 'd3 retry']);
    expect(counts).toEqual({ retried: 3, notJudged: ['c'], incomplete: ['d'] });
  });

  it('a set judged at once is not tried again', async () => {
    expect(await judgeWithRetry(['a', 'b'], async () => 'judged' as const, (item) => item)).toEqual({ retried: 0, notJudged: [], incomplete: [] });
  });
});
