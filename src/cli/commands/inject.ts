import { randomInt, randomUUID } from 'node:crypto';
import { mkdir, rename, rmdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import PQueue from 'p-queue';
import { exitEarnsReward, type AgentExit } from '../../agent/agent-exit.js';
import { artifactId } from '../../artifact/artifact-id.js';
import { writeArtifactDir } from '../../artifact/write-artifact.js';
import { createPolicy, type PolicyFlags } from '../../policy/create-policy.js';
import { progressDisplay } from '../../util/progress-display.js';
import { formatValidationTable } from '../../report/validation-table.js';
import { runInjectorEpisode, type InjectorEpisode } from '../../roles/injector-episode.js';
import { historyNote, historyUsable, probeRepoHistory } from '../../roles/repo-history.js';
import { roleLimits } from '../../roles/role-limits.js';
import { pickStrategy, STRATEGY_CHOICES, type InjectorStrategy, type StrategyChoice } from '../../roles/injector-strategy.js';
import { createProvider, prepareTemplate } from '../../sandbox/sandbox-factory.js';
import { AheadProvider } from '../../sandbox/pool/ahead-provider.js';
import { releaseProvider } from '../../sandbox/pool/release-provider.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { seededRng } from '../../util/seeded-rng.js';
import { BaselineCache } from '../../validator/baseline-cache.js';
import { validateArtifact, type ValidationResult } from '../../validator/validate-artifact.js';
import { addAgentLimitOptions, agentLimitsFromFlags, type AgentLimitFlags } from '../agent-limit-options.js';
import { addRepoOptions, addSandboxOption, addWarmOption, positiveInt, resolveRepoOptions, type RepoOptions, type SandboxChoice, type WarmFlags } from '../common-options.js';
import { addPolicyOptions } from '../policy-options.js';
import { DEFAULT_VALIDATE_CONCURRENCY } from './validate.js';
import { testTimeoutMsOf, testTimeoutOption } from '../test-timeout-option.js';

interface InjectOptions extends RepoOptions, PolicyFlags, AgentLimitFlags, WarmFlags {
  strategy: StrategyChoice;
  out: string;
  json?: boolean;
  testTimeout?: number;
  concurrency: number;
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
}

/** `--json` output of `ssr inject`: exactly these keys. */
export interface InjectSummary {
  valid: boolean;
  failedCheck: ValidationResult['failedCheck'];
  /** `<out>/bugs/<bug-id>`, or null when nothing usable was submitted. */
  bugDir: string | null;
  turns: number;
  exitStatus: AgentExit['exitStatus'];
}

/** What metadata.json records about the rollout that made a bug (never part of its id). */
function rolloutMetadata(episodeId: string, strategy: InjectorStrategy, seed: number, policy: { name: string; version: number }, exit: AgentExit) {
  return { episodeId, strategy, seed, policy: { name: policy.name, version: policy.version }, exitStatus: exit.exitStatus, turns: exit.turns, createdAt: new Date().toISOString() };
}

export function registerInject(program: Command): void {
  const command = program
    .command('inject')
    .description('run one Injector episode, validate what it submits and save it (exit 0 valid, 1 invalid or nothing submitted, 2 usage/infrastructure error)');
  addRepoOptions(command);
  addPolicyOptions(command);
  command
    .addOption(new Option('--strategy <strategy>', 'injector prompt (method §7); mixed draws removal or history per rollout').choices(STRATEGY_CHOICES).default('mixed'))
    .requiredOption('--out <dir>', 'output folder: bugs go to <out>/bugs/<bug-id>/, episodes without a bug to <out>/episodes/<episode-id>/')
    .option('--json', 'print one JSON line {valid, failedCheck, bugDir, turns, exitStatus} instead of a report')
    .addOption(testTimeoutOption())
    .option('--concurrency <n>', 'sandboxes the validator runs at once', positiveInt('--concurrency'), DEFAULT_VALIDATE_CONCURRENCY);
  addAgentLimitOptions(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  addWarmOption(command);
  command.action(async (options: InjectOptions) => {
    const repo = await resolveRepoOptions(options);
    const policy = await createPolicy(options);
    const seed = options.seed ?? randomInt(2 ** 31);
    const backend = await sandboxBackend(options);
    const display = progressDisplay(process.stderr);
    const template = await prepareTemplate(repo, backend, display.sink).finally(display.stop);
    // Validation's queued runs find their sandboxes started while the runs before them hold the slots (AheadProvider).
    const provider = new AheadProvider(createProvider(backend, options.warm), options.concurrency);
    try {
      // The mix plans history only where there is a code change to revert (one git log in the image).
      const history = options.strategy === 'mixed' ? await probeRepoHistory(provider, template) : null;
      if (history && !historyUsable(history)) process.stderr.write(`ssr inject: ${historyNote(repo.id, history)}\n`);
      const strategy = pickStrategy(options.strategy, seededRng(seed).fork('strategy'), history === null || historyUsable(history));
      const testTimeoutMs = testTimeoutMsOf(options, repo);
      const out = resolve(options.out);
      const episodeId = `inject-${strategy}-${randomUUID().slice(0, 8)}`;
      const episodeDir = join(out, 'episodes', episodeId);
      const trajectoryPath = join(episodeDir, 'trajectory.jsonl');

      process.stderr.write(`ssr inject: episode ${episodeId} on ${repo.id} (${policy.name}, strategy ${strategy}, seed ${seed})\n`);
      const episode = await runInjectorEpisode({
        policy, repo, template, provider, strategy, limits: roleLimits(agentLimitsFromFlags(options), testTimeoutMs), episodeId, seed, testTimeoutMs, trajectoryPath,
      });
      const { exit } = episode;
      const ended = `episode ${episodeId} ended: ${exit.exitStatus} after ${exit.turns} turn(s)${exit.error ? ` (${exit.error.message})` : ''}${exit.gaveUp ? ` (${exit.gaveUp})` : ''}`;
      const report = (summary: InjectSummary, code: number, text: string): void => {
        process.stdout.write(options.json ? `${JSON.stringify(summary)}\n` : `${ended}\n${text}`);
        process.exitCode = code;
      };
      const base = { turns: exit.turns, exitStatus: exit.exitStatus };

      // Not the model's doing (endpoint down, sandbox gone): nothing to judge, the episode is discarded.
      if (!exitEarnsReward(exit.exitStatus)) {
        return report({ valid: false, failedCheck: null, bugDir: null, ...base }, 2, `episode discarded (not scored); trajectory: ${trajectoryPath}\n`);
      }
      if (!episode.artifact) {
        const why = await saveUnusable(episode, episodeDir);
        return report({ valid: false, failedCheck: why.failedCheck, bugDir: null, ...base }, 1, `${why.text}; trajectory: ${trajectoryPath}\n`);
      }

      const result = await validateArtifact(episode.artifact, {
        repo, template, provider, testTimeoutMs, queue: new PQueue({ concurrency: options.concurrency }), baselines: new BaselineCache(),
      });
      const bugDir = join(out, 'bugs', artifactId(episode.artifact));
      const notes = episode.artifact.metadata;
      const metadata = { ...rolloutMetadata(episodeId, strategy, seed, policy, exit), repo: repo.id, commit: repo.commit, ...(notes ? { injectorNotes: notes } : {}) };
      await writeArtifactDir(bugDir, { ...episode.artifact, metadata }, { ifExists: 'replace' });
      await writeFile(join(bugDir, 'validation.json'), `${JSON.stringify(result, null, 2)}\n`);
      await rename(trajectoryPath, join(bugDir, 'trajectory.jsonl'));
      await rmdir(episodeDir).catch(() => undefined);
      const code = result.infrastructureError ? 2 : result.valid ? 0 : 1;
      report({ valid: result.valid, failedCheck: result.failedCheck, bugDir, ...base }, code, `${formatValidationTable(result, bugDir)}`);
    } finally {
      // --warm: the sandboxes started ahead go on every way out.
      await releaseProvider(provider, (line) => process.stderr.write(`ssr inject: ${line}\n`));
    }
  });
}

/** An episode that ended without a usable artifact: keep what it submitted next to its trajectory. */
async function saveUnusable(episode: InjectorEpisode, episodeDir: string): Promise<{ failedCheck: ValidationResult['failedCheck']; text: string }> {
  const submission = episode.exit.submission;
  if (submission?.type !== 'injector' || episode.submissionProblem === undefined) return { failedCheck: null, text: 'nothing was submitted' };
  const dir = join(episodeDir, 'submission');
  await mkdir(dir, { recursive: true });
  await Promise.all([
    writeFile(join(dir, 'bug_inject.diff'), submission.bugInject),
    writeFile(join(dir, 'test_weaken.diff'), submission.testWeaken),
    writeFile(join(dir, 'test_files.txt'), submission.testFiles),
    writeFile(join(dir, 'test_script.sh'), submission.testScript),
    writeFile(join(dir, 'test_parser.py'), submission.testParser),
  ]);
  return { failedCheck: 'existence', text: `INVALID: rejected by existence: ${episode.submissionProblem} (submission kept in ${dir})` };
}
