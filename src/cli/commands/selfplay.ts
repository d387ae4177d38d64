import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { AgentLimits } from '../../agent/agent-limits.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import { resolveRepoRef } from '../../onboarding/resolve-repo-ref.js';
import { resolveDefaultPolicy, type PolicyFlags } from '../../policy/create-policy.js';
import type { LogTarget } from '../../report/step-log/step-log.js';
import { addLogToOption, createRunPolicy, resolvedRunSettings } from '../run-provenance.js';
import { formatTextSummary } from '../../report/text-summary.js';
import { advantageEstimatorSchema, type AdvantageEstimator } from '../../rl/advantages.js';
import { DEFAULT_MAX_STALENESS, METHOD_MAX_STALENESS } from '../../rl/staleness.js';
import { LIMIT_HIT_MODES, type LimitHitMode } from '../../rl/build-sample.js';
import type { SandboxBackend } from '../../sandbox/sandbox.js';
import { STRATEGY_CHOICES, type StrategyChoice } from '../../roles/injector-strategy.js';
import { samplerSyncModeSchema, type SamplerSyncMode } from '../../training/sampler-sync-mode.js';
import { DEFAULT_PROBE_TOLERANCE } from '../../training/verify-sampler.js';
import { selectBackend } from '../../sandbox/select-backend.js';
import type { EngineAddress } from '../../sandbox/engines/engine-address.js';
import { addDockerHostOption, dockerHostsOf } from '../docker-host-options.js';
import { runSelfplay, type SelfplayRunResult } from '../../selfplay/run-selfplay.js';
import { ALLOW_ONE_USER_FLAG } from '../../selfplay/golden-gate/one-user-policy.js';
import { selfplaySettingsSchema, TRAIN_ROLES, type SelfplaySettingsInput, type TrainRoles } from '../../selfplay/selfplay-settings.js';
import { EngineError } from '../../util/engine-error.js';
import { nonNegativeInt } from '../../util/flag-values.js';
import { addAgentLimitOptions, agentLimitsFromFlags, type AgentLimitFlags } from '../agent-limit-options.js';
import { addSandboxOption, addWarmOption, loadReposOption, positiveInt, positiveNumber, type SandboxChoice, type WarmFlags } from '../common-options.js';
import { addPolicyOptions } from '../policy-options.js';
import { addBreadthOptions, withBreadthFlags, type BreadthFlags } from '../breadth-options.js';
import { addLeakPolicyOption } from '../leak-policy-option.js';
import { addEvalSetOptions, checkEvalSetFlags, heldOutInput, type EvalSetFlags } from '../eval-set-options.js';
import type { LeakPolicy } from '../../agent/leak-flag.js';
import { testTimeoutOption } from '../test-timeout-option.js';
import { flagSecondsToMs } from '../../config/test-timeout.js';
import { addAnchorOptions, anchorSettingsOf, loadAnchorBugs, type AnchorFlags } from '../anchor-options.js';

/** Flags `ssr selfplay` and `ssr corpus` share. */
export interface RunFlags extends PolicyFlags, AgentLimitFlags, WarmFlags, BreadthFlags {
  repos?: string;
  out: string;
  json?: boolean;
  strategy: StrategyChoice;
  solverMaxTurns?: number;
  testTimeout?: number;
  episodeConcurrency?: number;
  solverConcurrency?: number;
  sandboxConcurrency?: number;
  policyConcurrency?: number;
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
  slotsPerHost?: number;
  /** false with --no-golden-gate. */
  goldenGate: boolean;
  logTo?: LogTarget[];
}

interface SelfplayFlags extends RunFlags, AnchorFlags {
  repo?: string[];
  steps: number;
  episodesPerStep?: number;
  attempts: number;
  alpha?: number;
  advantage: AdvantageEstimator;
  maxStaleness: number;
  higherOrderCap: number;
  trainRoles: TrainRoles;
  limitHits: LimitHitMode;
  corpus?: string;
  trainer?: string;
  samplerSync: SamplerSyncMode;
  samplerCheckTolerance?: number;
  leakPolicy: LeakPolicy;
  saveEvery?: number;
  keepCheckpoints: number;
  resume?: boolean;
  allowOneUserGrading?: boolean;
}

/** Episodes per repo per step when not given: the RL group of an LLM Injector, few for the slow model-free policy. */
export function defaultEpisodesPerStep(flags: PolicyFlags): number {
  const kind = resolveDefaultPolicy(flags);
  return kind === 'procedural' || kind === 'scripted' ? 2 : 8;
}

export { nonNegativeInt } from '../../util/flag-values.js';

function unitInterval(flag: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new EngineError('usage', `${flag}: expected a number in [0, 1], got "${value}"`);
    return parsed;
  };
}

/** Adds the flags both commands share: strategy, limits, concurrency lanes, sandbox, output. */
export function addRunOptions(command: Command): Command {
  addPolicyOptions(command);
  command
    .requiredOption('--out <dir>', 'run dir (bugs/, episodes.jsonl, trajectories/, samples/, metrics.jsonl); re-running the same command resumes it')
    .option('--json', 'print one JSON summary {steps, episodes, valid, invalidByCheck, solverAttempts, solved, higherOrder, rewards, bugQuality, outDir}, plus heldOut (the held-out curve) with --eval-set, on stdout')
    .addOption(new Option('--strategy <strategy>', 'injector prompt (method §7); mixed draws removal or history per rollout').choices(STRATEGY_CHOICES).default('mixed'))
    .option('--repos <file>', 'repo set file (default: ./repos.yaml when present)')
    .addOption(testTimeoutOption())
    .option('--solver-max-turns <n>', 'policy turns per Solver attempt (default: --max-turns)', positiveInt('--solver-max-turns'))
    .option('--episode-concurrency <n>', 'order-1 episodes in flight (default 2)', positiveInt('--episode-concurrency'))
    .option('--solver-concurrency <n>', 'Solver attempts running at once (default 2)', positiveInt('--solver-concurrency'))
    .option('--sandbox-concurrency <n>', 'validation and grading sandboxes running at once (default 2)', positiveInt('--sandbox-concurrency'))
    .option('--policy-concurrency <n>', 'policy calls in flight (default 8)', positiveInt('--policy-concurrency'))
    .option('--no-golden-gate', "skip the golden gate: each repo's clean suite run twice before any episode (flaky tests quarantined from the oracle sets, a limit the suite is near raised, or the repo refused; see golden-gate.json)");
  addAgentLimitOptions(command);
  addLogToOption(command);
  addDockerHostOption(command);
  command.option('--slots-per-host <n>', "with --docker-host: episodes each engine runs at once (default: from its CPUs and memory, one per CPU and 2 GiB)", positiveInt('--slots-per-host'));
  addBreadthOptions(command);
  return addWarmOption(addSandboxOption(command));
}

/**
 * Where a run's sandboxes come from: the engines of `--docker-host` (placed on by capacity), or
 * the one backend `--sandbox` selects. With engines and no concurrency flag, the lanes follow the
 * engines' slots (`scaleLanes`): two engines are no faster through lanes sized for one.
 */
export async function runSandboxes(flags: RunFlags): Promise<{ backend: SandboxBackend; engines: EngineAddress[]; slotsPerHost?: number; scaleLanes: boolean }> {
  const engines = dockerHostsOf(flags);
  if (engines.length === 0) {
    if (flags.slotsPerHost !== undefined) throw new EngineError('usage', '--slots-per-host needs --docker-host (or SSR_DOCKER_HOSTS)');
    return { backend: await selectBackend(flags.sandbox), engines, scaleLanes: false };
  }
  const scaleLanes = !flags.episodeConcurrency && !flags.solverConcurrency && !flags.sandboxConcurrency;
  return { backend: 'docker', engines, ...(flags.slotsPerHost ? { slotsPerHost: flags.slotsPerHost } : {}), scaleLanes };
}

/** The settings fields the shared flags decide. */
export function sharedSettings(flags: RunFlags): Pick<SelfplaySettingsInput, 'strategy' | 'seed' | 'injectorLimits' | 'solverLimits' | 'testTimeoutMs' | 'lanes' | 'goldenGate'> {
  const limits: Partial<AgentLimits> = agentLimitsFromFlags(flags);
  const lanes = {
    ...(flags.episodeConcurrency ? { episodes: flags.episodeConcurrency } : {}),
    ...(flags.solverConcurrency ? { solver: flags.solverConcurrency } : {}),
    ...(flags.sandboxConcurrency ? { sandbox: flags.sandboxConcurrency } : {}),
    ...(flags.policyConcurrency ? { policy: flags.policyConcurrency } : {}),
  };
  return {
    strategy: flags.strategy,
    seed: flags.seed ?? 0,
    injectorLimits: limits,
    solverLimits: { ...limits, ...(flags.solverMaxTurns ? { maxTurns: flags.solverMaxTurns } : {}) },
    testTimeoutMs: flagSecondsToMs(flags.testTimeout),
    lanes,
    goldenGate: flags.goldenGate,
  };
}

/** What names the policy in run.json: a resume must use the same kind, model and script. */
export function policyKey(flags: PolicyFlags): Record<string, unknown> {
  return { kind: resolveDefaultPolicy(flags), model: flags.model ?? null, script: flags.policyScript ?? null };
}

/**
 * Print the end of a run: the run report's figures as text on stderr (the same as `ssr report`
 * prints), the JSON summary or a closing line on stdout; exit 2 when stopped.
 */
export function reportRun(command: string, result: SelfplayRunResult, json: boolean | undefined): void {
  process.stderr.write(`\nssr ${command}: ${formatTextSummary({ name: result.summary.outDir, steps: result.metrics, heldOutAtStart: result.summary.heldOut?.find((point) => point.step === 0) ?? null })}`);
  if (result.status === 'stopped') {
    process.stderr.write(
      `ssr ${command}: stopped: ${result.reason}. Everything finished is kept in ${result.summary.outDir}; ` +
        'episodes cut off are recorded as discarded (no reward). Re-run the same command to continue.\n',
    );
    // The exit code of infrastructure errors (EXIT_USAGE_OR_INFRA in main.ts, not imported: main imports the commands).
    process.exitCode = 2;
  }
  const { summary } = result;
  process.stdout.write(
    json ? `${JSON.stringify(summary)}\n` : `${summary.steps} step(s), ${summary.episodes} episode(s), ${summary.valid} valid bug(s), ${summary.solved}/${summary.solverAttempts} attempts solved, ${summary.higherOrder} order-2 episode(s): ${summary.outDir}\n`,
  );
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The endpoint an HTTP policy samples from (--base-url, else OPENAI_BASE_URL); null for model-free policies. */
function samplerUrlOf(flags: PolicyFlags): string | null {
  const kind = resolveDefaultPolicy(flags);
  if (kind !== 'openai' && kind !== 'tokens') return null;
  const url = flags.baseUrl ?? process.env.OPENAI_BASE_URL;
  return url === undefined || url.trim() === '' ? null : url.trim();
}

export function registerSelfplay(program: Command): void {
  const command = program
    .command('selfplay')
    .description(
      'run self-play steps: Injector rollouts, validation, N Solver attempts per bug, order-2 bugs, rewards, RL samples. ' +
        '--seed is the run seed (default 0): episode ids, strategies and sampling seeds derive from it, so re-running the same command resumes. ' +
        '(exit 0 done, 2 usage/infrastructure error or the engine went away)',
    )
    .option('--repo <id|path>', 'repo id from repos.yaml or a local git repository; repeat for several repos', collect)
    .requiredOption('--steps <n>', 'self-play steps to run (a resumed run skips the finished ones)', positiveInt('--steps'))
    .option('--episodes-per-step <n>', 'order-1 episodes per repo per step (default: 2 with the procedural or scripted policy, 8 with a model: the Injector group)', positiveInt('--episodes-per-step'))
    .option('--attempts <n>', 'Solver attempts per bug: the Solver RL group size', positiveInt('--attempts'), 8)
    .option('--alpha <a>', 'injector reward α of method §5, in [0, 1] (default 0.8)', unitInterval('--alpha'))
    .addOption(new Option('--advantage <estimator>', 'group-relative advantage').choices(advantageEstimatorSchema.options).default('rloo'))
    .option(
      '--max-staleness <n>',
      `asynchronous steps: the next steps sample while at most this many train calls are pending; samples more than this many versions old are dropped (0: synchronous; the method allows up to ${METHOD_MAX_STALENESS})`,
      nonNegativeInt('--max-staleness'),
      DEFAULT_MAX_STALENESS,
    )
    .option('--higher-order-cap <n>', 'order-2 bugs grown from each order-1 bug at most (0: none)', nonNegativeInt('--higher-order-cap'), 1)
    .addOption(new Option('--train-roles <roles>', 'roles whose samples are written and trained (ablations)').choices(TRAIN_ROLES).default('both'))
    .addOption(
      new Option('--limit-hits <mode>', 'a Solver attempt that hits a turn/context/time limit: fail = -1, stays in its group (method §9); mask = graded, out of the loss')
        .choices(LIMIT_HIT_MODES)
        .default('fail'),
    )
    .option('--corpus <dir>', 'solve-only mode: solve the valid bugs of an earlier run dir instead of injecting (repair-only ablation)')
    .option('--trainer <url>', 'trainer service: POST <url>/train/step after every step; the policy then samples as its new version')
    .addOption(
      new Option('--sampler-sync <mode>', 'when --base-url is not --trainer: how the sampler loads the weights the trainer saves after each step (auto detects; none: never, its samples age out)')
        .choices(samplerSyncModeSchema.options)
        .default('auto'),
    )
    .option('--sampler-check-tolerance <x>', `after each sync the sampler's log-probs of a probe must match the trainer's within this mean difference (default ${DEFAULT_PROBE_TOLERANCE}; docs/rl-contract.md)`,
      positiveNumber('--sampler-check-tolerance'))
    .option('--save-every <n>', 'with --trainer: a resumable trainer checkpoint (POST <url>/weights/save: weights, optimizer, training state) every n steps, recorded in <out>/training.jsonl; a separate sampler otherwise gets weights-only exports', positiveInt('--save-every'))
    .option('--keep-checkpoints <n>', 'with --save-every: the resumable checkpoints kept on the trainer\'s disk (each save deletes all but the newest n)', positiveInt('--keep-checkpoints'), 2)
    .option('--resume', 'with --trainer: the trainer service was restarted from the run\'s last checkpoint (--resume <its path>); continue the run from it')
    .option(
      ALLOW_ONE_USER_FLAG,
      "run on a backend whose tests run as the sandbox's only user (bubblewrap, a non-root pod), where code under test can forge a +1; refused without it (run.json records it; docs/grading.md, \"One user only\")",
    );
  addEvalSetOptions(command);
  addLeakPolicyOption(command);
  addAnchorOptions(command);
  addRunOptions(command);
  command.action(async (flags: SelfplayFlags & EvalSetFlags) => {
    if (!flags.repo?.length) throw new EngineError('usage', 'ssr selfplay: give at least one --repo <id|path>');
    const anchor = anchorSettingsOf(flags);
    const loaded = await loadReposOption(flags.repos);
    const repos: ResolvedRepo[] = [];
    for (const ref of flags.repo) repos.push(withBreadthFlags(await resolveRepoRef(ref, loaded), flags));
    if (new Set(repos.map((repo) => repo.id)).size !== repos.length) throw new EngineError('usage', 'ssr selfplay: a --repo is given twice');
    checkEvalSetFlags(flags);
    if ((flags.resume || flags.saveEvery) && !flags.trainer) throw new EngineError('usage', `ssr selfplay: ${flags.resume ? '--resume' : '--save-every'} needs --trainer <url>`);
    const settings = selfplaySettingsSchema.parse({
      ...sharedSettings(flags),
      episodesPerStep: flags.episodesPerStep ?? defaultEpisodesPerStep(flags),
      attempts: flags.attempts,
      ...(flags.alpha === undefined ? {} : { alpha: flags.alpha }),
      advantage: flags.advantage,
      maxStaleness: flags.maxStaleness,
      higherOrderCap: flags.higherOrderCap,
      trainRoles: flags.trainRoles,
      limitHits: flags.limitHits,
      trainerUrl: flags.trainer ?? null,
      samplerUrl: samplerUrlOf(flags),
      samplerSync: flags.samplerSync,
      ...(flags.samplerCheckTolerance === undefined ? {} : { samplerCheckTolerance: flags.samplerCheckTolerance }),
      saveEvery: flags.saveEvery ?? 0,
      keepCheckpoints: flags.keepCheckpoints,
      corpusDir: flags.corpus === undefined ? null : resolve(flags.corpus),
      leakPolicy: flags.leakPolicy,
      anchor,
      allowOneUserGrading: flags.allowOneUserGrading ?? false,
    });
    const { policy, server } = await createRunPolicy(flags);
    const sandboxes = await runSandboxes(flags);
    const anchorBugs = await loadAnchorBugs(settings, repos, sandboxes.backend);
    const result = await runSelfplay({
      anchorBugs,
      command: 'selfplay', repos, policy, policyKey: policyKey(flags), ...sandboxes, warm: flags.warm, settings, steps: flags.steps, out: resolve(flags.out), resume: flags.resume ?? false,
      // --eval-set: loaded and checked here, before any episode.
      ...(await heldOutInput(flags, {
        repos, loaded, repoRefs: flags.repo, out: resolve(flags.out), corpusDir: settings.corpusDir, backend: sandboxes.backend, engines: sandboxes.engines.length,
        warn: (line) => void process.stderr.write(`ssr selfplay: ${line}\n`),
      })),
      logTo: flags.logTo ?? [], server, resolvedSettings: resolvedRunSettings(flags, { settings, backend: sandboxes.backend, policy: policyKey(flags), steps: flags.steps }),
    });
    reportRun('selfplay', result, flags.json);
  });
}
