import { z } from 'zod';
import type { GoldenGate } from '../selfplay/golden-gate/judge-golden-gate.js';

/**
 * Above this share of the clean runs' time with some task waiting for a CPU, their times say more
 * about the machine's load than about the suite (a quiet machine stays near 0, a loaded one near 1).
 */
export const BUSY_PRESSURE = 0.2;

/** What `ssr init` wrote as limits.test_timeout_s, and why (`testTimeout` of `ssr init --json`). */
export const initTestTimeoutSchema = z.object({
  written: z.number().int().positive().describe('limits.test_timeout_s written to the entry, s'),
  gateRaisedTo: z.number().int().positive().nullable().describe("the limit init's golden gate raised it to for its own runs, s; null when it did not"),
  cpuPressure: z.number().min(0).max(1).nullable().describe("share of the clean runs' wall time some task waited for a CPU (/proc/pressure/cpu); null where unknown"),
  raiseWritten: z.boolean().describe('the raised limit was written: measured on a quiet machine (or with the load unknown)'),
});
export type InitTestTimeout = z.infer<typeof initTestTimeoutSchema>;

const percent = (share: number): string => `${Math.round(share * 100)} %`;

/**
 * The limit init writes for a suite the golden gate passed, started at `startS`. A raise is written
 * only when measured on a quiet machine: one measured under load would stay in repos.yaml for good,
 * far above what the suite needs. Under load init keeps `startS`, which loses nothing for self-play
 * and mining (their own golden gate raises the limit again for their run when the suite comes near
 * it), and says how to keep a higher limit for the commands that run no gate. Pure.
 */
export function decideInitTestTimeout(verdict: Extract<GoldenGate, { status: 'passed' }>, startS: number, cpuPressure: number | null): { timeout: InitTestTimeout; note?: string } {
  if (verdict.raisedFromMs === null) return { timeout: { written: startS, gateRaisedTo: null, cpuPressure, raiseWritten: false } };
  const raised = Math.ceil(verdict.testTimeoutMs / 1000);
  const took = `${(Math.max(...verdict.cleanMs) / 1000).toFixed(1)} s`;
  if (cpuPressure !== null && cpuPressure > BUSY_PRESSURE) {
    return {
      timeout: { written: startS, gateRaisedTo: raised, cpuPressure, raiseWritten: false },
      note:
        `the clean suite took ${took}, more than half the ${startS} s limit, while the machine was busy (some task waited for a CPU ${percent(cpuPressure)} of the time): ` +
        `the golden gate raised the limit to ${raised} s for init's runs only; limits.test_timeout_s stays ${startS} s rather than a limit measured under load. ` +
        'Every ssr selfplay and ssr mine runs the golden gate again and raises it for that run when the suite comes near it; ' +
        'to keep a higher limit for the commands that do not (ssr validate, ssr eval), run ssr init again on a quiet machine or pass --test-timeout <seconds>',
    };
  }
  const quiet = cpuPressure === null
    ? '; whether the machine was busy is unknown (no /proc/pressure/cpu): if it was, run ssr init again once it is quiet'
    : `, measured on a quiet machine (some task waited for a CPU ${percent(cpuPressure)} of the time)`;
  return {
    timeout: { written: raised, gateRaisedTo: raised, cpuPressure, raiseWritten: true },
    note: `the clean suite took ${took}, more than half the ${startS} s limit: limits.test_timeout_s set to ${raised} s${quiet}`,
  };
}
