import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import { resolveRepoRef } from '../../onboarding/resolve-repo-ref.js';
import { withBreadthFlags } from '../breadth-options.js';
import { runSelfplay } from '../../selfplay/run-selfplay.js';
import { selfplaySettingsSchema } from '../../selfplay/selfplay-settings.js';
import { EngineError } from '../../util/engine-error.js';
import { loadReposOption, positiveInt } from '../common-options.js';
import { createRunPolicy, resolvedRunSettings } from '../run-provenance.js';
import { addRunOptions, nonNegativeInt, policyKey, reportRun, runSandboxes, sharedSettings, type RunFlags } from './selfplay.js';

interface CorpusFlags extends RunFlags {
  repo?: string[];
  perRepo: number;
  solveAttempts: number;
}

const DEFAULT_PER_REPO = 4;
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerCorpus(program: Command): void {
  const command = program
    .command('corpus')
    .description('generate a bug corpus: Injector rollouts + validation on every repo of a repo set, deduplicated by buggy tree, resumable (exit 0 done, 2 usage/infrastructure error)')
    .option('--repo <id>', 'only this repo of the set (repeatable; default: every repo)', collect)
    .option('--per-repo <n>', `injection episodes per repo (default ${DEFAULT_PER_REPO})`, positiveInt('--per-repo'), DEFAULT_PER_REPO)
    .option('--solve-attempts <n>', 'Solver attempts per valid bug to estimate its solve rate (0: none)', nonNegativeInt('--solve-attempts'), 0);
  addRunOptions(command);
  command.action(async (flags: CorpusFlags) => {
    const loaded = await loadReposOption(flags.repos);
    if (!loaded) throw new EngineError('usage', 'ssr corpus: give --repos <file> (no ./repos.yaml here)');
    const ids = flags.repo?.length ? flags.repo : loaded.file.repos.map((repo) => repo.id);
    const repos: ResolvedRepo[] = [];
    for (const id of ids) {
      if (!loaded.file.repos.some((repo) => repo.id === id)) throw new EngineError('usage', `ssr corpus: --repo ${id} is not in ${flags.repos ?? 'repos.yaml'}`);
      repos.push(withBreadthFlags(await resolveRepoRef(id, loaded), flags));
    }
    const settings = selfplaySettingsSchema.parse({
      ...sharedSettings(flags),
      episodesPerStep: flags.perRepo,
      attempts: flags.solveAttempts,
      higherOrderCap: 0,
      emitSamples: false,
    });
    const { policy, server } = await createRunPolicy(flags);
    const sandboxes = await runSandboxes(flags);
    const result = await runSelfplay({
      command: 'corpus', repos, policy, policyKey: policyKey(flags), ...sandboxes, warm: flags.warm, settings, steps: 1, out: resolve(flags.out),
      logTo: flags.logTo ?? [], server, resolvedSettings: resolvedRunSettings(flags, { settings, backend: sandboxes.backend, policy: policyKey(flags), steps: 1 }),
    });
    reportRun('corpus', result, flags.json);
  });
}
