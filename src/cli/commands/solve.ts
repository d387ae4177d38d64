import { createHash, randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import PQueue from 'p-queue';
import { artifactId } from '../../artifact/artifact-id.js';
import { loadArtifactDir } from '../../artifact/load-artifact.js';
import { createPolicy, type PolicyFlags } from '../../policy/create-policy.js';
import { progressDisplay } from '../../util/progress-display.js';
import { scoreInjector } from '../../reward/score-injector.js';
import { validateForGrading } from '../../roles/grading-oracle.js';
import { createProvider, prepareTemplate } from '../../sandbox/sandbox-factory.js';
import { releaseProvider } from '../../sandbox/pool/release-provider.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import type { LeakPolicy } from '../../agent/leak-flag.js';
import { runGradedAttempt, type AttemptContext, type AttemptLine } from '../../roles/graded-attempt.js';
import { BaselineCache } from '../../validator/baseline-cache.js';
import { addAgentLimitOptions, agentLimitsFromFlags, type AgentLimitFlags } from '../agent-limit-options.js';
import { addRepoOptions, addSandboxOption, addWarmOption, positiveInt, resolveRepoOptions, type RepoOptions, type SandboxChoice, type WarmFlags } from '../common-options.js';
import { addPolicyOptions } from '../policy-options.js';
import { addLeakPolicyOption } from '../leak-policy-option.js';
import { DEFAULT_VALIDATE_CONCURRENCY } from './validate.js';
import { testTimeoutMsOf, testTimeoutOption } from '../test-timeout-option.js';

interface SolveOptions extends RepoOptions, PolicyFlags, AgentLimitFlags, WarmFlags {
  artifact: string;
  attempts: number;
  out: string;
  json?: boolean;
  concurrency?: number;
  testTimeout?: number;
  priorPatch?: string;
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
  leakPolicy: LeakPolicy;
}

/** The paper's RL group size (method §5). */
const DEFAULT_ATTEMPTS = 8;

export function registerSolve(program: Command): void {
  const command = program
    .command('solve')
    .description('validate a bug artifact, run N graded Solver attempts on it and report the solve rate (exit 0 all graded, 1 invalid artifact, 2 usage/infrastructure error)');
  addRepoOptions(command);
  addPolicyOptions(command);
  command
    .requiredOption('--artifact <dir>', 'artifact directory with the five files')
    .option('--attempts <n>', 'Solver attempts (the RL group size)', positiveInt('--attempts'), DEFAULT_ATTEMPTS)
    .requiredOption('--out <dir>', 'output folder: attempts go to <out>/solves/<bug-id>/attempt-<i>/ (trajectory, pred_patch.diff, grade.json, leaks.json)')
    .option('--json', 'print one JSON line {bugId, attempts, solveRate, injectorReward} instead of a report')
    .option('--concurrency <n>', 'attempts running at once (default: all of them)', positiveInt('--concurrency'))
    .addOption(testTimeoutOption())
    .option('--prior-patch <file>', "a failed attempt's pred_patch.diff: solve the higher-order bug it makes (method §6; no injector reward)");
  addAgentLimitOptions(command);
  addLeakPolicyOption(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  addWarmOption(command);
  command.action(async (options: SolveOptions) => {
    const artifactDir = resolve(options.artifact);
    const artifact = await loadArtifactDir(artifactDir);
    const priorPatch = options.priorPatch === undefined ? undefined : await readPriorPatch(options.priorPatch);
    const repo = await resolveRepoOptions(options);
    const policy = await createPolicy(options);
    const backend = await sandboxBackend(options);
    const display = progressDisplay(process.stderr);
    const template = await prepareTemplate(repo, backend, display.sink).finally(display.stop);
    const provider = createProvider(backend, options.warm);
    try {
      const testTimeoutMs = testTimeoutMsOf(options, repo);
      const baseId = artifactId(artifact);
      const bugId = priorPatch === undefined ? baseId : `${baseId}-o2-${createHash('sha256').update(priorPatch).digest('hex').slice(0, 8)}`;

      process.stderr.write(`ssr solve: validating ${artifactDir}\n`);
      const oracle = await validateForGrading(artifact, {
        repo, template, provider, testTimeoutMs, queue: new PQueue({ concurrency: DEFAULT_VALIDATE_CONCURRENCY }), baselines: new BaselineCache(),
      });
      const { validation } = oracle;
      if (oracle.status === 'invalid') {
        process.stderr.write(`ssr solve: refusing an invalid artifact: rejected by ${oracle.failedCheck}: ${oracle.reason}\n`);
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ bugId, valid: false, failedCheck: oracle.failedCheck, attempts: [], solveRate: null, injectorReward: -1 })}\n`);
        }
        process.exitCode = 1;
        return;
      }

      const solveDir = join(resolve(options.out), 'solves', bugId);
      const ctx: AttemptContext = {
        policy, template, provider, artifact, priorPatch, testRunner: repo.testRunner, originalPassing: oracle.originalPassing, originalGuarded: validation.originalGuarded, toleratedTampering: validation.toleratedTampering, testTimeoutMs,
        limits: agentLimitsFromFlags(options), leakPolicy: options.leakPolicy, baseSeed: options.seed ?? randomInt(2 ** 31), dir: solveDir,
      };
      process.stderr.write(`ssr solve: ${options.attempts} attempt(s) on ${bugId} with ${policy.name}\n`);
      const queue = new PQueue({ concurrency: options.concurrency ?? options.attempts });
      const numbers = Array.from({ length: options.attempts }, (_, i) => i + 1);
      const attempts = await Promise.all(numbers.map((n) => queue.add(() => runGradedAttempt(ctx, n, bugId)) as Promise<AttemptLine>));

      const scored = attempts.filter((a) => a.reward !== null);
      const solves = scored.filter((a) => a.reward === 1).length;
      const solveRate = scored.length > 0 ? solves / scored.length : null;
      // Higher-order bugs train the Solver only (method §6): they imply no injector reward.
      const injector = scored.length > 0 && priorPatch === undefined ? scoreInjector({ valid: true, solves, attempts: scored.length }) : null;
      // ssr solve's JSON keeps its attempt lines as they were (the grade code is in grade.json).
      const summary = { bugId, attempts: attempts.map(withoutCode), solveRate, injectorReward: injector?.value ?? null };
      await writeFile(
        join(solveDir, 'solves.json'),
        `${JSON.stringify({ ...summary, artifact: artifactDir, repo: repo.id, policy: { name: policy.name, version: policy.version }, injectorRewardReason: injector?.reason ?? null, failToPass: validation.failToPass }, null, 2)}\n`,
      );
      process.stdout.write(options.json ? `${JSON.stringify(summary)}\n` : formatSolveReport(summary, solves, scored.length, injector?.reason));
      process.exitCode = scored.length === attempts.length ? 0 : 2;
    } finally {
      // --warm: the sandboxes started ahead go on every way out.
      await releaseProvider(provider, (line) => process.stderr.write(`ssr solve: ${line}\n`));
    }
  });
}

function withoutCode(line: AttemptLine): Omit<AttemptLine, 'code'> {
  const copy: Partial<AttemptLine> = { ...line };
  delete copy.code;
  return copy as Omit<AttemptLine, 'code'>;
}

async function readPriorPatch(file: string): Promise<string> {
  try {
    return await readFile(resolve(file), 'utf8');
  } catch (error) {
    throw new EngineError('usage', `--prior-patch ${file}: cannot read it (${errorMessage(error)})`);
  }
}

function formatSolveReport(summary: { bugId: string; attempts: AttemptLine[]; solveRate: number | null; injectorReward: number | null }, solves: number, scored: number, why?: string): string {
  const lines = [summary.bugId];
  for (const a of summary.attempts) {
    const reward = a.reward === null ? 'n/a' : a.reward > 0 ? '+1' : '-1';
    const leaks = a.leaks.length === 0 ? '' : `  [leaks: ${a.leaks.map((flag) => `${flag.kind}@turn ${flag.turn}`).join(', ')}]`;
    lines.push(`  attempt ${String(a.attempt).padStart(2)}  ${reward.padStart(3)}  ${a.exitStatus.padEnd(20)} ${String(a.turns).padStart(3)} turns  ${a.reason}${leaks}`);
  }
  const discarded = summary.attempts.length - scored;
  lines.push(`  solve rate ${summary.solveRate === null ? 'n/a' : `${solves}/${scored} = ${summary.solveRate.toFixed(3)}`}${discarded > 0 ? ` (${discarded} attempt(s) discarded)` : ''}`);
  lines.push(`  injector reward ${summary.injectorReward === null ? 'n/a' : `${summary.injectorReward.toFixed(3)} (${why})`}`);
  return `${lines.join('\n')}\n`;
}
