import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import { weakeningOf } from '../../src/validator/bug-quality.js';
import { granularityOf } from '../../src/policy/procedural/injector/weaken-targets.js';
import { agentLimitsSchema } from '../../src/agent/agent-limits.js';
import { runAgent } from '../../src/agent/run-agent.js';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { parseTestFilesList } from '../../src/artifact/test-files-list.js';
import { parseUnifiedDiff } from '../../src/code/unified-diff.js';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { ProceduralPolicy } from '../../src/policy/procedural/procedural-policy.js';
import { injectorPrompts } from '../../src/roles/role-prompts.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { Sandbox, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { toolsForRole } from '../../src/tools/registry.js';
import { BaselineCache } from '../../src/validator/baseline-cache.js';
import { validateArtifact, type ValidateOptions } from '../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo } from '../helpers/sandboxes.js';

/** One episode plus validation: ~10-60 s alone, several times that on a loaded machine. */
const TIMEOUT_MS = 300_000;

interface Rollout {
  artifact: BugArtifact;
  metadata: Record<string, unknown>;
  turns: number;
  summary: string;
  /** The policy that played it (its discovery memos live on), and its phase times. */
  policy: ProceduralPolicy;
  phases: Partial<Record<string, number>> | undefined;
}

/**
 * The procedural Injector end to end on pyledger: the real prompts of each strategy, the real
 * tools and agent loop in a Docker sandbox, and the real validator on what it submits.
 */
describe('procedural Injector on pyledger (real Docker, real pytest, real validator)', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  let validation: Omit<ValidateOptions, 'repo'>;
  /** Rollouts of the strategy tests, by `strategy:seed`, for the reproducibility test to compare with. */
  const rollouts = new Map<string, Rollout>();

  beforeAll(async () => {
    repo = await exampleRepo();
    template = await dockerTemplate(repo);
    validation = { template, provider: createProvider('docker'), queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache() };
  });

  async function inject(strategy: 'removal' | 'history' | 'direct', seed: number, minChangedFiles = 1, policy = new ProceduralPolicy({ seed })): Promise<Rollout> {
    const thresholds = { ...repo.thresholds, min_changed_files: minChangedFiles };
    const limits = agentLimitsSchema.parse({});
    const prompts = injectorPrompts(strategy, { thresholds, testTimeoutMs: 90_000 }, limits);
    const sandbox: Sandbox = await validation.provider.acquire(template);
    try {
      let summary = '';
      const exit = await runAgent({
        policy, sandbox, role: 'injector', ...prompts, tools: toolsForRole('injector'),
        limits, episodeId: `procedural-${strategy}-${seed}`, seed,
        trajectory: { write: async (record) => void (record.type === 'step' && record.toolCall === undefined && (summary = record.assistant.content)) },
      });
      expect(exit.exitStatus, summary).toBe('submitted');
      expect(exit.formatErrors).toBe(0);
      expect(exit.submission?.type).toBe('injector');
      const submission = exit.submission!;
      if (submission.type !== 'injector') throw new Error('not an injector submission');
      const metadata = JSON.parse((await sandbox.readFile('/tmp/ssr_art/metadata.json')).toString('utf8')) as Record<string, unknown>;
      const artifact: BugArtifact = {
        bugInject: submission.bugInject, testWeaken: submission.testWeaken, testFiles: parseTestFilesList(submission.testFiles).files,
        testScript: submission.testScript, testParser: submission.testParser,
      };
      const rollout = { artifact, metadata, turns: exit.turns, summary, policy, phases: policy.takePhaseTimes(`procedural-${strategy}-${seed}`) };
      rollouts.set(`${strategy}:${seed}:${minChangedFiles}`, rollout);
      return rollout;
    } finally {
      await sandbox.dispose();
    }
  }

  it.each([
    ['removal', 2, 'removal', /^remove-/],
    ['history', 1, 'history', /^revert-commit$/],
    ['direct', 1, 'operator', /^(?!remove-function-body|remove-loop|remove-if-block|remove-statement)/],
  ] as const)('%s (seed %d) yields an artifact the validator accepts', async (strategy, seed, recorded, operator) => {
    const rollout = await inject(strategy, seed);
    const result = await validateArtifact(rollout.artifact, { ...validation, repo });
    expect(result.infrastructureError).toBeUndefined();
    expect({ valid: result.valid, failedCheck: result.failedCheck }, JSON.stringify(result.checks.at(-1))).toEqual({ valid: true, failedCheck: null });
    expect(result.failToPass.length).toBeGreaterThan(0);

    // The diffs keep to their side: code in bug_inject.diff, listed tests in test_weaken.diff.
    const bugFiles = parseUnifiedDiff(rollout.artifact.bugInject).touchedPaths;
    expect(bugFiles.every((file) => file.startsWith('pyledger/'))).toBe(true);
    expect(parseUnifiedDiff(rollout.artifact.testWeaken).touchedPaths.every((file) => rollout.artifact.testFiles.includes(file))).toBe(true);
    expect(rollout.artifact.testWeaken).not.toMatch(/^\+\s*#\s*(def|assert)\b/m);

    // Strategy and operators are recorded, in metadata.json and in the closing summary.
    expect(rollout.metadata).toMatchObject({ policy: 'procedural', seed, strategy: recorded, requestedStrategy: strategy });
    const operators = rollout.metadata.operators as { operator: string; file: string }[];
    expect(operators.map((o) => o.file).sort()).toEqual(bugFiles);
    for (const o of operators) expect(o.operator).toMatch(operator);
    // The weakening records the granularity it used, and the diff agrees with it.
    const weakening = rollout.metadata.weakening as { granularity: string; deletedTests: string[]; deletedAssertions: string[] };
    expect(weakening.granularity).toBe(granularityOf(weakening.deletedTests, weakening.deletedAssertions));
    if (weakening.granularity !== 'mixed') expect(weakeningOf(rollout.artifact.testWeaken)).toBe(weakening.granularity);
    // The F tests were really run alone and in reverse order (pytest on pyledger), and held.
    expect(result.checks.at(-1)).toMatchObject({ name: 'order-independence', status: 'pass', evidence: { runner: 'pytest', passesAlone: [], flipsWithOrder: [] } });
    expect((result.checks.at(-1)!.evidence as { judgedAlone: number }).judgedAlone).toBeGreaterThan(0);
    // Its own runs: the clean run, one per candidate (removal and direct: only the test files that
    // execute the candidate's lines), the weakened runs, and no run of B of its own (a one-file
    // bug's candidate run is B's). Removal seed 2's first candidate is its bug, in a function body.
    const runs = rollout.metadata.testRuns as { full: number; restricted: number };
    expect(runs.full, JSON.stringify(rollout.metadata)).toBeLessThanOrEqual(1 + (rollout.metadata.attempts as number));
    expect(rollout.metadata.candidateTests).toMatch(strategy === 'history' ? /^the whole suite: history/ : /^the test files that execute the changed lines$/);
    if (strategy === 'removal') expect(runs).toEqual({ full: 1, restricted: 2 });
    expect(rollout.summary).toContain(`Injected a ${recorded} bug`);
    expect(rollout.summary).toContain('/tmp/ssr_art/metadata.json');
  }, TIMEOUT_MS);

  it('spreads a removal bug over two files that each matter when min_changed_files is 2', async () => {
    const rollout = await inject('removal', 1, 2);
    const result = await validateArtifact(rollout.artifact, { ...validation, repo: { ...repo, thresholds: { ...repo.thresholds, min_changed_files: 2 } } });
    expect({ valid: result.valid, failedCheck: result.failedCheck }, JSON.stringify(result.checks.at(-1))).toEqual({ valid: true, failedCheck: null });
    expect(parseUnifiedDiff(rollout.artifact.bugInject).touchedPaths).toHaveLength(2);
  }, TIMEOUT_MS);

  it('is reproducible: the same seed injects the same bug, also from the clean and traced runs an earlier episode kept', async () => {
    const first = rollouts.get('direct:1:1') ?? (await inject('direct', 1));
    // The same policy (one run): the first episode kept its discovery, so this one runs neither
    // the clean suite nor the trace, and finds the same bug with the same runs less the clean one.
    const again = await inject('direct', 1, 1, first.policy);
    expect(again.artifact).toEqual(first.artifact);
    const runs = first.metadata.testRuns as { full: number; restricted: number };
    expect(again.metadata).toEqual({ ...first.metadata, testRuns: { full: runs.full - 1, restricted: runs.restricted } });
    expect(Object.keys(first.phases ?? {})).toEqual(expect.arrayContaining(['discover', 'trace', 'memo', 'read', 'kept', 'weaken', 'write']));
    expect(Object.keys(again.phases ?? {})).toEqual(expect.arrayContaining(['discover', 'memo', 'read', 'kept', 'weaken', 'write']));
    expect(again.phases?.trace).toBeUndefined();
    expect(again.turns).toBeLessThan(first.turns);
  }, 2 * TIMEOUT_MS);
});
