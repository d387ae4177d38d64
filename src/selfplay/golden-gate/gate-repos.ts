import { z } from 'zod';
import { writeJsonAtomic } from '../../corpus/atomic-write.js';
import { readJsonFile } from '../../corpus/read-json-file.js';
import type { SandboxProvider } from '../../sandbox/sandbox.js';
import { EngineError } from '../../util/engine-error.js';
import type { RunRepo } from '../selfplay-context.js';
import { describeGoldenGate, goldenGateSchema, type GoldenGate } from './judge-golden-gate.js';
import { runGoldenGate } from './run-golden-gate.js';

export interface GateReposOptions {
  repos: ReadonlyMap<string, RunRepo>;
  provider: SandboxProvider;
  /** `<run>/golden-gate.json`: read on resume (the same quarantine for the whole run), written after. */
  file: string;
  /** The configured limit of a repo, ms. */
  limitOf: (run: RunRepo) => number;
  log: (line: string) => void;
}

/**
 * Run the golden gate of every repo of a run before its episodes (or take the verdict an earlier
 * run of the same dir stored for the same repo, commit and image), store them all, and attach each
 * to its repo.
 * @throws EngineError `config-invalid` naming the repo and why, when a repo is refused; the
 *   infrastructure's own errors.
 */
export async function gateRepos(options: GateReposOptions): Promise<Map<string, RunRepo>> {
  const stored = (await readJsonFile(options.file, z.array(goldenGateSchema), { optional: true })) ?? [];
  const gated = new Map<string, RunRepo>();
  const gates: GoldenGate[] = [];
  for (const [id, run] of options.repos) {
    const earlier = stored.find((gate) => gate.repo === id && gate.commit === run.repo.commit && gate.image === run.template.ref && gate.status === 'passed');
    const gate = earlier ?? (await runGoldenGate({ repo: run.repo, template: run.template, provider: options.provider, testTimeoutMs: options.limitOf(run) }));
    options.log(`${describeGoldenGate(gate)}${earlier ? ' (from an earlier run of this dir)' : ''}`);
    gates.push(gate);
    if (gate.status === 'refused') {
      await writeJsonAtomic(options.file, gates);
      throw new EngineError('config-invalid', `golden gate: ${gate.reason}`);
    }
    gated.set(id, { ...run, gate });
  }
  await writeJsonAtomic(options.file, gates);
  return gated;
}
