import type { TestRunner } from '../../config/repos-schema.js';
import { RUNNER_NAMES, runnerNamed } from '../../harness/runner-names.js';

// Longest names first, so `node-tap` is not read as a shorter name that prefixes it.
const NAMES = Object.values(RUNNER_NAMES).sort((a, b) => b.length - a.length);
const PHRASE = new RegExp(`\\btests run with (${NAMES.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w-])`, 'i');

/**
 * The test runner the prompts name ("its tests run with node:test", as a JS repo's role prompts
 * say), or null when they name none (a Python repo's prompts: pytest, or unittest found by trying).
 * The procedural policies act only on what their prompts tell them, like a model would.
 */
export function readTestRunner(systemPrompt: string, userPrompt: string): TestRunner | null {
  const name = PHRASE.exec(`${systemPrompt}\n${userPrompt}`)?.[1];
  return name === undefined ? null : (runnerNamed(name) ?? null);
}
