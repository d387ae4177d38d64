import type { TestRunner } from '../config/repos-schema.js';

/**
 * How prompts name each runner ("its tests run with node:test"). The procedural policy reads the
 * runner back from that phrase (it is a policy: the prompts are all it sees), so the names are
 * one table both sides use.
 */
export const RUNNER_NAMES: Readonly<Record<TestRunner, string>> = {
  pytest: 'pytest',
  jest: 'Jest',
  vitest: 'Vitest',
  mocha: 'Mocha',
  'node-test': 'node:test',
  tape: 'tape',
  'node-tap': 'node-tap',
};

/** The runner a prompt calls `name` (case-insensitive), or undefined for a name of no runner. */
export function runnerNamed(name: string): TestRunner | undefined {
  const wanted = name.toLowerCase();
  return (Object.keys(RUNNER_NAMES) as TestRunner[]).find((runner) => RUNNER_NAMES[runner].toLowerCase() === wanted);
}
