import { readFile } from 'node:fs/promises';

/** Linux's CPU pressure (PSI): the µs some runnable task waited for a CPU, since boot. */
const PSI_CPU = '/proc/pressure/cpu';

/**
 * The `some … total=` counter of {@link PSI_CPU}, µs; null where the kernel has none (not Linux,
 * PSI off): then nobody can tell whether the machine was busy.
 */
export async function cpuPressureTotalUs(file = PSI_CPU): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  const match = text?.match(/^some\b.*\btotal=(\d+)/m);
  return match ? Number(match[1]) : null;
}

/**
 * Share of a window's wall time in which some task waited for a CPU (0 to 1): how much the
 * machine's load could stretch what ran in that window. Null when either end is unknown.
 */
export function cpuPressureShare(startUs: number | null, endUs: number | null, wallMs: number): number | null {
  if (startUs === null || endUs === null || wallMs <= 0) return null;
  return Math.min(1, Math.max(0, (endUs - startUs) / (wallMs * 1000)));
}
