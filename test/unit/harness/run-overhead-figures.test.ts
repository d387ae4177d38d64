import { describe, expect, it } from 'vitest';
import { renderRunOverhead, type OverheadSample } from '../../../src/harness/bench/run-overhead-figures.js';

const sample = (build: string, rep: number, bare: [number, number | null], ssr: [number, number | null]): OverheadSample => ({
  build,
  rep,
  bare: { wallMs: bare[0], cpuMs: bare[1] },
  ssr: { wallMs: ssr[0], cpuMs: ssr[1] },
});

describe('renderRunOverhead', () => {
  it('gives each build its overhead per run (ssr minus bare) and ratio, per repetition and the median, and after over before', () => {
    const samples = [
      // before: overheads 1000, 1200 (wall) and 300, 320 (CPU) in repetition 1's two pairs; 900 / 280 in repetition 2.
      sample('main', 1, [2000, 300], [3000, 600]),
      sample('main', 1, [2000, 300], [3200, 620]),
      sample('main', 2, [2000, 300], [2900, 580]),
      sample('HEAD', 1, [2000, 300], [2500, 450]),
      sample('HEAD', 2, [2000, 300], [2450, 440]),
    ];
    const text = renderRunOverhead(samples, ['main', 'HEAD']);
    expect(text).toContain('overhead, wall : median 1000 ms (each: 1100 ms, 900 ms)');
    expect(text).toContain('overhead, CPU  : median 295 ms (each: 310 ms, 280 ms)');
    expect(text).toContain('ssr / bare, CPU  : median 1.98x (each: 2.03x, 1.93x)');
    expect(text).toContain('overhead, wall : median 475 ms (each: 500 ms, 450 ms)');
    // after / before per repetition: 500/1100 and 450/900 (wall), 150/310 and 140/280 (CPU).
    expect(text).toContain('overhead HEAD / main, wall : median 0.48x (each: 0.45x, 0.50x)');
    expect(text).toContain('overhead HEAD / main, CPU  : median 0.49x (each: 0.48x, 0.50x)');
  });

  it('gives runs in a fresh sandbox each a section of their own, after the one-sandbox pairs', () => {
    const fresh = (build: string, bare: [number, number], ssr: [number, number]): OverheadSample => ({ ...sample(build, 1, bare, ssr), where: 'fresh' });
    const text = renderRunOverhead([sample('main', 1, [2000, 300], [3000, 600]), fresh('main', [2500, 320], [5500, 900]), fresh('HEAD', [2500, 320], [3000, 610])], ['main', 'HEAD']);
    const [same, fresher] = text.split('per test run, a fresh sandbox each');
    expect(same).toContain('overhead, CPU  : median 300 ms (each: 300 ms)');
    expect(fresher).toContain('overhead, wall : median 3000 ms (each: 3000 ms)');
    expect(fresher).toContain('overhead, CPU  : median 580 ms (each: 580 ms)');
    expect(fresher).toContain('overhead HEAD / main, CPU  : median 0.50x (each: 0.50x)');
  });

  it('says n/a for CPU where the host gave no container CPU time', () => {
    const text = renderRunOverhead([sample('working tree', 1, [1000, null], [1500, null])], ['working tree']);
    expect(text).toContain('overhead, wall : median 500 ms (each: 500 ms)');
    expect(text).toContain('overhead, CPU  : median n/a (each: n/a)');
  });
});
