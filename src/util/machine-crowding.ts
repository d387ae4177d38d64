import { availableParallelism, loadavg } from 'node:os';

/**
 * How crowded this machine is now: the 1-minute load average per core, at least 1. A test run
 * started now takes about this many times what it takes on an idle machine, so limits derived
 * from a quiet measurement are stretched by it.
 */
export function machineCrowding(): number {
  return Math.max(1, loadavg()[0]! / availableParallelism());
}
