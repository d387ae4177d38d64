import { describe, expect, it } from 'vitest';
import { LruCache } from '../src/lru-cache';

describe('LruCache', () => {
  it('evicts the least recently set entry beyond max', () => {
    const cache = new LruCache<string, number>({ max: 2 });
    cache.set('a', 1).set('b', 2).set('c', 3);
    expect(cache.keys()).toEqual(['b', 'c']);
    expect(cache.size).toBe(2);
  });

  it('get() makes an entry the most recently used', () => {
    const cache = new LruCache<string, number>({ max: 2 });
    cache.set('a', 1).set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
  });

  it('peek() and has() leave the order alone', () => {
    const cache = new LruCache<string, number>({ max: 2 });
    cache.set('a', 1).set('b', 2);
    expect(cache.peek('a')).toBe(1);
    expect(cache.has('a')).toBe(true);
    cache.set('c', 3);
    expect(cache.keys()).toEqual(['b', 'c']);
  });

  it('setting an existing key replaces it without evicting', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>({ max: 2, onEvict: (key) => evicted.push(key) });
    cache.set('a', 1).set('b', 2).set('a', 10);
    expect(evicted).toEqual([]);
    expect(cache.keys()).toEqual(['b', 'a']);
    expect(cache.peek('a')).toBe(10);
  });

  it('tells onEvict which entry made room', () => {
    const evicted: Array<[string, number]> = [];
    const cache = new LruCache<string, number>({ max: 1, onEvict: (key, value) => evicted.push([key, value]) });
    cache.set('a', 1).set('b', 2);
    cache.delete('b');
    expect(evicted).toEqual([['a', 1]]);
  });

  it('keeps falsy values', () => {
    const cache = new LruCache<string, number | null>({ max: 3 });
    cache.set('zero', 0).set('none', null);
    expect(cache.get('zero')).toBe(0);
    expect(cache.get('none')).toBeNull();
    expect(cache.stats()).toEqual({ hits: 2, misses: 0, ratio: 1 });
  });

  it('getOrSet() computes a missing value once', () => {
    const cache = new LruCache<number, number>({ max: 4 });
    let calls = 0;
    const square = (n: number) => {
      calls++;
      return n * n;
    };
    expect(cache.getOrSet(3, square)).toBe(9);
    expect(cache.getOrSet(3, square)).toBe(9);
    expect(calls).toBe(1);
  });

  it('getOrSet() on a cached key keeps it from the next eviction', () => {
    const cache = new LruCache<string, number>({ max: 2 });
    cache.set('a', 1).set('b', 2);
    cache.getOrSet('a', () => 0);
    cache.set('c', 3);
    expect(cache.keys()).toEqual(['a', 'c']);
  });

  it('counts hits and misses', () => {
    const cache = new LruCache<string, number>({ max: 2 });
    expect(cache.stats().ratio).toBe(0);
    cache.set('a', 1);
    cache.get('a');
    cache.get('b');
    cache.get('c');
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, ratio: 1 / 3 });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses max %s', (max) => {
    expect(() => new LruCache({ max })).toThrow(`max must be a positive integer, got ${max}`);
  });
});
