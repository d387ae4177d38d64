import { describe, expect, it } from 'vitest';
import type { HeldOutMetrics } from '../../../src/evaluation/held-out/held-out-metrics.js';
import { heldOutCurve, jsonSummary } from '../../../src/selfplay/json-summary.js';

const evaluated = (step: number, solved: number): HeldOutMetrics => ({
  set: '/sets/mined',
  policyVersion: step,
  instances: 2,
  invalid: 0,
  notJudged: 0,
  attempts: 4,
  solved,
  solveRate: solved / 4,
  passAt1: solved / 4,
  overlaps: 1,
  dir: `eval/step-${step}`,
});

describe('ssr selfplay --json: the held-out curve', () => {
  it('gives one point per evaluated step, in step order, from the metrics lines', () => {
    const metrics = [{ step: 1 }, { step: 2, heldOut: evaluated(2, 1) }, { step: 3 }, { step: 4, heldOut: evaluated(4, 3) }];
    const summary = jsonSummary([], 4, '/runs/sp', [], heldOutCurve(metrics));
    expect(summary.heldOut).toEqual([
      { step: 2, policyVersion: 2, instances: 2, attempts: 4, solved: 1, solveRate: 0.25, passAt1: 0.25, overlaps: 1, dir: 'eval/step-2' },
      { step: 4, policyVersion: 4, instances: 2, attempts: 4, solved: 3, solveRate: 0.75, passAt1: 0.75, overlaps: 1, dir: 'eval/step-4' },
    ]);
  });

  it('leaves the key out of a run that evaluated nothing, so its keys stay exactly the documented ones', () => {
    const summary = jsonSummary([], 2, '/runs/sp', [], heldOutCurve([{ step: 1 }, { step: 2 }]));
    expect(Object.keys(summary)).not.toContain('heldOut');
  });
});
