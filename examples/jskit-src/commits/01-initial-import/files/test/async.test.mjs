import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapLimit, retry } from '../src/async.mjs';

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapLimit', () => {
  it('keeps input order whatever finishes first', async () => {
    const results = await mapLimit([30, 10, 20], 3, async (ms) => {
      await delay(ms);
      return ms * 2;
    });
    assert.deepEqual(results, [60, 20, 40]);
  });
  it('never runs more than limit at once', async () => {
    let running = 0;
    let peak = 0;
    await mapLimit([1, 2, 3, 4, 5], 2, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await delay(5);
      running -= 1;
    });
    assert.equal(peak, 2);
  });
});

describe('retry', () => {
  it('returns the first success', async () => {
    let calls = 0;
    const value = await retry(async () => {
      calls += 1;
      if (calls < 3) throw new Error(`fail ${calls}`);
      return 'ok';
    }, 5);
    assert.equal(value, 'ok');
    assert.equal(calls, 3);
  });
  it('throws the last error after the last attempt', async () => {
    let calls = 0;
    await assert.rejects(retry(async () => { calls += 1; throw new Error(`fail ${calls}`); }, 2), /fail 2/);
  });
});
