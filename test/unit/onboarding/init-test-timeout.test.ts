import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuPressureShare, cpuPressureTotalUs } from '../../../src/onboarding/cpu-pressure.js';
import { decideInitTestTimeout } from '../../../src/onboarding/init-test-timeout.js';
import { judgeGoldenGate, type CleanRun } from '../../../src/selfplay/golden-gate/judge-golden-gate.js';

const root = await mkdtemp(join(tmpdir(), 'ssr-init-timeout-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The gate's verdict on two clean runs of `seconds` each, started at a 90 s limit (as init's gate judges them). */
function passed(seconds: number) {
  const run: CleanRun = { statuses: { 't::a': 'passed' }, durationMs: seconds * 1000, timedOut: false, exitCode: 0 };
  const verdict = judgeGoldenGate([run, run], 90_000, { repo: 'r', commit: 'c'.repeat(40), image: 'ssr-repo-r:0' });
  if (verdict.status !== 'passed') throw new Error(verdict.reason);
  return verdict;
}

describe("ssr init's limits.test_timeout_s", () => {
  it('keeps the start limit when the gate raised it while the machine was busy, and says why and how to re-measure', () => {
    // A 60 s clean suite near the 90 s limit: the gate runs it at 180 s.
    const { timeout, note } = decideInitTestTimeout(passed(60), 90, 0.85);
    expect(timeout).toEqual({ written: 90, gateRaisedTo: 180, cpuPressure: 0.85, raiseWritten: false });
    expect(note).toMatch(/took 60\.0 s, more than half the 90 s limit, while the machine was busy \(some task waited for a CPU 85 % of the time\)/);
    expect(note).toMatch(/raised the limit to 180 s for init's runs only; limits\.test_timeout_s stays 90 s/);
    expect(note).toMatch(/run ssr init again on a quiet machine or pass --test-timeout <seconds>/);
  });

  it('writes the raise measured on a quiet machine, or with the load unknown (saying so), and the start limit when nothing was raised', () => {
    expect(decideInitTestTimeout(passed(60), 90, 0.03)).toEqual({
      timeout: { written: 180, gateRaisedTo: 180, cpuPressure: 0.03, raiseWritten: true },
      note: 'the clean suite took 60.0 s, more than half the 90 s limit: limits.test_timeout_s set to 180 s, measured on a quiet machine (some task waited for a CPU 3 % of the time)',
    });
    const unknown = decideInitTestTimeout(passed(60), 90, null);
    expect(unknown.timeout).toMatchObject({ written: 180, raiseWritten: true });
    expect(unknown.note).toContain('whether the machine was busy is unknown (no /proc/pressure/cpu)');
    // A suite well inside its limit: nothing raised, nothing to say, even on a busy machine.
    expect(decideInitTestTimeout(passed(5), 90, 0.9)).toEqual({ timeout: { written: 90, gateRaisedTo: null, cpuPressure: 0.9, raiseWritten: false } });
  });

  it("reads the kernel's CPU pressure counter (null without one) and turns two readings into a share of the wall time", async () => {
    const file = join(root, 'cpu');
    await writeFile(file, 'some avg10=90.21 avg60=79.77 avg300=57.69 total=29961643296\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n');
    expect(await cpuPressureTotalUs(file)).toBe(29961643296);
    expect(await cpuPressureTotalUs(join(root, 'absent'))).toBeNull();
    // 6 s of waiting in a 10 s window; never above 1, unknown when either reading is.
    expect(cpuPressureShare(1_000_000, 7_000_000, 10_000)).toBeCloseTo(0.6);
    expect(cpuPressureShare(0, 50_000_000, 10_000)).toBe(1);
    expect(cpuPressureShare(null, 7_000_000, 10_000)).toBeNull();
  });
});
