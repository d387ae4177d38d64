import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/util/engine-error.js';
import { seededRng } from '../../../src/util/seeded-rng.js';

const draw = (seed: number | string, n = 8) => {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => rng.next());
};

describe('seededRng', () => {
  it.each<[number | string]>([[0], [1], [42], [-7], ['repo:step-3']])('is deterministic for seed %j', (seed) => {
    expect(draw(seed)).toEqual(draw(seed));
  });

  it('gives different sequences for different seeds, numeric or string', () => {
    expect(draw(1)).not.toEqual(draw(2));
    expect(draw('a')).not.toEqual(draw('b'));
  });

  it('keeps next() in [0, 1) and int(n) in [0, n), roughly uniform', () => {
    const rng = seededRng(123);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const x = rng.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      counts[rng.int(4)]! += 1;
    }
    for (const count of counts) expect(count).toBeGreaterThan(850);
  });

  it('picks elements and shuffles a copy', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const rng = seededRng(5);
    expect(items).toContain(rng.pick(items));
    const shuffled = rng.shuffle(items);
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(seededRng(5).shuffle(items)).toEqual(seededRng(5).shuffle(items));
  });

  it('forks by label, independent of how far the parent has drawn', () => {
    const a = seededRng(9);
    const b = seededRng(9);
    b.next();
    b.next();
    expect(a.fork('file.py').next()).toBe(b.fork('file.py').next());
    expect(a.fork('x').next()).not.toBe(a.fork('y').next());
  });

  it.each<[string, () => unknown]>([
    ['a fractional seed', () => seededRng(1.5)],
    ['int(0)', () => seededRng(1).int(0)],
    ['int(2.5)', () => seededRng(1).int(2.5)],
    ['pick([])', () => seededRng(1).pick([])],
  ])('rejects %s', (_name, call) => {
    expect(call).toThrow(EngineError);
  });
});
