import type PQueue from 'p-queue';
import { artifactId } from '../artifact/artifact-id.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { describeBugQuality } from '../validator/bug-quality.js';
import type { BugMetadata } from '../corpus/bug-metadata.js';
import { buggyTreeHash } from '../corpus/buggy-tree-hash.js';
import { runPaths } from '../corpus/run-layout.js';
import { writeStoredBug } from '../corpus/write-stored-bug.js';
import { runnerOf } from '../harness/repo-test-files.js';
import { validateForGrading } from '../roles/grading-oracle.js';
import { prepareTemplate } from '../sandbox/sandbox-factory.js';
import type { SandboxBackend, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { runGoldenGate } from '../selfplay/golden-gate/run-golden-gate.js';
import { isEngineError } from '../util/engine-error.js';
import type { ProgressSink } from '../util/progress.js';
import type { BaselineCache } from '../validator/baseline-cache.js';
import type { MiningCandidate } from './classify-commit.js';
import { commitArtifact } from './commit-artifact.js';
import type { RepoHistoryReader } from './repo-history-reader.js';
import { reasonOfFailedCheck, type SkipReason } from './skip-reasons.js';
import { resolveTestTimeoutMs } from '../config/test-timeout.js';
import type { CheckResult } from '../validator/check-types.js';

export interface JudgeContext {
  repo: ResolvedRepo;
  backend: SandboxBackend;
  provider: SandboxProvider;
  history: RepoHistoryReader;
  queue: PQueue;
  baselines: BaselineCache;
  /** Where bug dirs go (`<out>/bugs/<id>/`). */
  out: string;
  /** Image builds' progress. */
  progress: ProgressSink;
  /** Told of the template (image) each commit is judged in, once it is ready (run-mine removes it after). */
  onTemplate?: (template: SandboxTemplate, commit: string) => void;
  /**
   * Set when the images of judged commits are removed after (no `--keep-images`): each then gets a
   * tag of this run's own (ResolvedRepo.imageScope), so the removal never takes an image another
   * clone's run or command shares by content. The pinned commit's image is never scoped (nor removed).
   */
  imageScope?: string;
}

export type Judgement =
  | { status: 'mined'; bugId: string; detail: string }
  | { status: 'skipped'; reason: SkipReason; detail: string }
  /** Infrastructure failed (Docker gone, a sandbox that would not start): not a verdict on the commit. */
  | { status: 'infrastructure'; detail: string };

const skipped = (reason: SkipReason, detail: string): Judgement => ({ status: 'skipped', reason, detail });

/**
 * Judge one candidate commit C in its own image (the repo at C, built by the repo's recipe), by
 * the machinery a synthetic bug goes through: the golden gate on C (two clean runs; flaky tests
 * are quarantined), then the consistency checks with C as O. A valid one is stored as a bug dir
 * whose metadata names C as its original commit.
 */
export async function judgeCandidate(ctx: JudgeContext, candidate: MiningCandidate): Promise<Judgement> {
  const artifact = await commitArtifact(ctx.history, candidate, runnerOf(ctx.repo));
  const repo = judgedRepo(ctx, candidate.sha);
  try {
    return await judgeInSandboxes(ctx, repo, candidate, artifact);
  } catch (error) {
    if (!isEngineError(error)) throw error;
    if (error.code === 'image-build-failed') return skipped('does-not-build', error.message.split('\n').slice(0, 3).join(' '));
    return { status: 'infrastructure', detail: `${error.message.split('\n')[0]} [${error.code}]` };
  }
}

async function judgeInSandboxes(ctx: JudgeContext, repo: ResolvedRepo, candidate: MiningCandidate, artifact: BugArtifact): Promise<Judgement> {
  const template = await prepareTemplate(repo, ctx.backend, ctx.progress);
  ctx.onTemplate?.(template, repo.commit);
  const gate = await runGoldenGate({ repo, template, provider: ctx.provider, testTimeoutMs: resolveTestTimeoutMs(repo) });
  if (gate.status === 'refused') return skipped('does-not-build', `the golden gate refused its clean suite: ${gate.reason}`);
  const quarantine = new Set(gate.quarantined);
  const oracle = await validateForGrading(
    artifact,
    { repo, template, provider: ctx.provider, testTimeoutMs: gate.testTimeoutMs, queue: ctx.queue, baselines: ctx.baselines, inverseRedundancy: 'record' },
    quarantine,
  );
  if (oracle.status === 'invalid') {
    const evidence = oracle.validation.checks.find((check) => check.name === oracle.failedCheck)?.evidence;
    return skipped(reasonOfFailedCheck(oracle.failedCheck, evidence as Record<string, unknown> | undefined), `${oracle.failedCheck}: ${oracle.reason}`);
  }
  const failToPass = oracle.validation.failToPass.filter((id) => !quarantine.has(id));
  if (failToPass.length === 0) return skipped('flaky', `every failing test is quarantined by the golden gate (${oracle.quarantined.length})`);
  // Quarantined tests are in no oracle set: what export and eval read is what grading uses.
  const validation = { ...oracle.validation, failToPass, passToPass: oracle.validation.passToPass.filter((id) => !quarantine.has(id)), quarantined: oracle.quarantined };
  const bugId = artifactId(artifact);
  const message = await ctx.history.message(candidate.sha);
  const metadata: BugMetadata = {
    id: bugId,
    repo: repo.id,
    commit: candidate.sha,
    strategy: 'mined',
    order: 1,
    parentBugId: null,
    attemptOf: null,
    episodeId: null,
    policyVersion: null,
    buggyTreeHash: buggyTreeHash({ repo: repo.id, commit: candidate.sha, bugInject: artifact.bugInject }),
    mined: { parent: candidate.parent, ...message },
    quality: describeBugQuality(artifact, validation, 'mined'),
  };
  await writeStoredBug(runPaths(ctx.out).bugDir(bugId), artifact, metadata, validation);
  const together = partsTogether(validation.checks);
  const kept = together.length > 0 ? `; kept with ${together.join(', ')}, which alone fix(es) no failing test when reverted (a real fix's files may only fix it together)` : '';
  return { status: 'mined', bugId, detail: `${failToPass.length} failing test(s) in ${artifact.testFiles.length} file(s), ${candidate.codeFiles.length} code file(s)${kept}` };
}

/** The repo at a candidate commit; its image is the run's own (imageScope) unless it is the pinned commit's, which is shared and kept. */
export function judgedRepo(ctx: Pick<JudgeContext, 'repo' | 'imageScope'>, sha: string): ResolvedRepo {
  const scoped = ctx.imageScope !== undefined && sha !== ctx.repo.commit;
  return { ...ctx.repo, commit: sha, ...(scoped ? { imageScope: ctx.imageScope } : {}) };
}

/** Code files of a kept multi-file fix that fix no failing test when reverted alone (inverse redundancy, recorded not enforced). */
export function partsTogether(checks: readonly CheckResult[]): string[] {
  const evidence = checks.find((check) => check.name === 'inverse-redundancy')?.evidence as { enforced?: boolean; redundantFiles?: string[] } | undefined;
  return evidence?.enforced === false ? [...(evidence.redundantFiles ?? [])] : [];
}
