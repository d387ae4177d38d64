import { describe, expect, it } from 'vitest';
import { Emitter } from '../src/emitter';

type Events = { data: [value: number]; done: []; error: [error: unknown] };

describe('Emitter', () => {
  it('calls listeners in the order they were added, with the arguments', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    emitter.on('data', (v) => seen.push(`a${v}`));
    emitter.on('data', (v) => seen.push(`b${v}`));
    expect(emitter.emit('data', 7)).toBe(2);
    expect(seen).toEqual(['a7', 'b7']);
  });

  it('runs a once listener a single time', () => {
    const emitter = new Emitter<Events>();
    let calls = 0;
    emitter.once('done', () => calls++);
    emitter.emit('done');
    emitter.emit('done');
    expect(calls).toBe(1);
    expect(emitter.listenerCount('done')).toBe(0);
  });

  it('returns an unsubscribe function from on()', () => {
    const emitter = new Emitter<Events>();
    let calls = 0;
    const stop = emitter.on('data', () => calls++);
    stop();
    expect(emitter.emit('data', 1)).toBe(0);
    expect(calls).toBe(0);
  });

  it('off() removes the earliest registration only and says whether it found one', () => {
    const emitter = new Emitter<Events>();
    const listener = () => {};
    emitter.on('done', listener);
    emitter.on('done', listener);
    expect(emitter.off('done', listener)).toBe(true);
    expect(emitter.listenerCount('done')).toBe(1);
    expect(emitter.off('data', listener)).toBe(false);
  });

  it('throws an error event that nobody listens to', () => {
    const emitter = new Emitter<Events>();
    expect(() => emitter.emit('error', new Error('disk full'))).toThrow('disk full');
    expect(() => emitter.emit('error', 'oops')).toThrow('unhandled error event: oops');
  });

  it('calls listeners with the emitter as this', () => {
    const emitter = new Emitter<Events>();
    let self: unknown;
    emitter.on('done', function (this: unknown) {
      self = this;
    });
    emitter.emit('done');
    expect(self).toBe(emitter);
  });

  it('refuses listeners beyond maxListeners', () => {
    const emitter = new Emitter<Events>({ maxListeners: 1 });
    emitter.on('done', () => {});
    expect(() => emitter.on('done', () => {})).toThrow('event "done" already has 1 listener(s), the maximum');
  });

  it('clear() removes one event or all of them', () => {
    const emitter = new Emitter<Events>();
    emitter.on('done', () => {});
    emitter.on('data', () => {});
    emitter.clear('done');
    expect([emitter.listenerCount('done'), emitter.listenerCount('data')]).toEqual([0, 1]);
    emitter.clear();
    expect(emitter.listenerCount('data')).toBe(0);
  });
});
