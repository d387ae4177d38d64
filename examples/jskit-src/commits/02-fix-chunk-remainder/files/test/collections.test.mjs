import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chunk, groupBy, lastN, sortedCopy, uniqueBy } from '../src/collections.mjs';

describe('chunk', () => {
  it('splits evenly', () => assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]));
  it('keeps a shorter last chunk', () => assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]));
  it('gives no chunks for no items', () => assert.deepEqual(chunk([], 3), []));
  it('refuses a size of zero', () => assert.throws(() => chunk([1], 0), RangeError));
});

describe('uniqueBy', () => {
  it('keeps the first item of each key, in order', () => {
    assert.deepEqual(uniqueBy([{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 1, v: 'c' }], (item) => item.id), [{ id: 1, v: 'a' }, { id: 2, v: 'b' }]);
  });
});

describe('sortedCopy', () => {
  it('sorts a copy and leaves the input alone', () => {
    const input = [3, 1, 2];
    assert.deepEqual(sortedCopy(input, (a, b) => a - b), [1, 2, 3]);
    assert.deepEqual(input, [3, 1, 2]);
  });
});

describe('groupBy', () => {
  it('groups in order of first appearance', () => {
    const groups = groupBy(['apple', 'avocado', 'banana'], (word) => word[0]);
    assert.deepEqual([...groups.entries()], [['a', ['apple', 'avocado']], ['b', ['banana']]]);
  });
});

describe('lastN', () => {
  it('takes the last items', () => assert.deepEqual(lastN([1, 2, 3, 4], 2), [3, 4]));
  it('takes everything when there are fewer', () => assert.deepEqual(lastN([1], 3), [1]));
  it('takes nothing for zero', () => assert.deepEqual(lastN([1, 2], 0), []));
});
