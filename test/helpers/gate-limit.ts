import { expect } from 'vitest';

/** What a passed golden gate must say about the limit, whatever the machine's load. */
interface PassedGate {
  cleanMs: readonly number[];
  testTimeoutMs: number;
  raisedFromMs: number | null;
}

/**
 * The gate judges the clean suite by its WALL time, and a container's wall time grows with the
 * number of containers sharing the cores (the kernel shares CPU between cgroups): pyledger's
 * 1–2 s suite took 45.7 s beside 48 busy containers on 2 cores, over half the 90 s limit, and the
 * gate rightly raised it (at that load a graded run is near the limit too). So a test may not
 * assume the limit is kept; it checks the decision against the gate's own measurement instead:
 * kept when the slower clean run took at most half the limit, else 3× that run (whole seconds).
 */
export function expectLimitFollowsCleanRuns(gate: PassedGate, limitMs: number): void {
  const slowest = Math.max(...gate.cleanMs);
  const expected = slowest > limitMs / 2 ? { raisedFromMs: limitMs, testTimeoutMs: Math.ceil((3 * slowest) / 1000) * 1000 } : { raisedFromMs: null, testTimeoutMs: limitMs };
  expect({ raisedFromMs: gate.raisedFromMs, testTimeoutMs: gate.testTimeoutMs }, `clean runs of ${gate.cleanMs.join(' / ')} ms against a ${limitMs} ms limit`).toEqual(expected);
}
