import { mkdir } from 'node:fs/promises';
import PQueue from 'p-queue';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { SandboxBackend, SandboxProvider } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import type { ProgressSink } from '../util/progress.js';
import { AheadProvider } from '../sandbox/pool/ahead-provider.js';
import { BaselineCache } from '../validator/baseline-cache.js';
import { classifyCommit, type MiningCandidate } from './classify-commit.js';
import { judgeCandidate, type Judgement } from './judge-commit.js';
import { checkMineConfig } from './mine-config.js';
import { appendMinedRecord, appendMinedRecords, readMinedLog, type MinedRecord } from './mined-log.js';
import { RepoHistoryReader } from './repo-history-reader.js';
import { JudgedImages } from './judged-images.js';
import { minedFileCounts } from './mined-file-counts.js';
import { type MineSummary, summarise } from './mine-summary.js';
import { formatDuration } from '../selfplay/selfplay-progress.js';
import type { SkipReason } from './skip-reasons.js';

export interface MineOptions {
  repo: ResolvedRepo;
  backend: SandboxBackend;
  provider: SandboxProvider;
  out: string;
  /** Stop once this many real bugs are in `out` (earlier runs' count too). */
  max?: number;
  /** Scan at most this many commits, newest first. */
  maxCommits?: number;
  /** Only commits after this revision (it and its ancestors are left out). */
  since?: string;
  /** Sandboxes running at once while validating. */
  concurrency: number;
  /** Keep the image built for each commit judged (`--keep-images`); by default it is removed once the commit is judged. */
  keepImages?: boolean;
  /** One line per commit judged, with the ETA. */
  onLine: (line: string) => void;
  progress: ProgressSink;
}

/**
 * Walk the repo's history from its pinned commit, newest first, and turn every fix commit whose
 * added or changed tests fail on the parent's code and pass on the commit into a real-bug dir under
 * `<out>/bugs/`. Each commit judged is written to `<out>/mined.jsonl` at once, so a rerun with the
 * same `out` resumes where this one stopped (infrastructure failures are tried again).
 */
export async function runMine(options: MineOptions): Promise<MineSummary> {
  await mkdir(options.out, { recursive: true });
  await checkMineConfig(options.out, options.repo);
  const history = await RepoHistoryReader.open(options.repo.location);
  try {
    const since = options.since === undefined ? undefined : await history.resolve(options.since).catch(() => {
      throw new EngineError('usage', `--since ${options.since}: no such commit in ${options.repo.location} (give a sha, tag or branch of its history)`);
    });
    const commits = await history.commits(options.repo.commit, { since, max: options.maxCommits });
    const judged = await readMinedLog(options.out);
    const counts = { mined: [...judged.values()].filter((r) => r.verdict === 'mined').length, infrastructure: 0, judgedNow: 0, minedNow: 0, judgingMs: 0 };
    // History alone sorts most commits; only candidates cost sandboxes, so the ETA counts those.
    const pending: { sha: string; candidate: MiningCandidate }[] = [];
    const sorted: MinedRecord[] = [];
    for (const commit of commits) {
      if (judged.has(commit.sha)) continue;
      const verdict = classifyCommit(commit);
      if (verdict.status === 'candidate') pending.push({ sha: commit.sha, candidate: verdict.candidate });
      else sorted.push({ commit: commit.sha, verdict: 'skipped', reason: verdict.reason, detail: verdict.detail, bugId: null, subject: commit.subject, durationMs: 0 });
    }
    // One append for the whole window: a kill before it only loses verdicts the history gives again in one git pass.
    await appendMinedRecords(options.out, sorted);
    for (const record of sorted) judged.set(record.commit, record);
    const images = new JudgedImages(options.repo.commit, options.keepImages === true, options.onLine);
    // Images removed once judged are this run's own (imageScope: the out dir); kept ones are shared by content.
    const scope = options.keepImages === true ? {} : { imageScope: `ssr mine --out ${options.out}` };
    const ctx = { ...options, history, queue: new PQueue({ concurrency: options.concurrency }), baselines: new BaselineCache(), onTemplate: images.onTemplate, ...scope };
    const started = Date.now();
    let stoppedBy: MineSummary['stoppedBy'] = 'history-end';
    for (const [index, { sha, candidate }] of pending.entries()) {
      if (options.max !== undefined && counts.mined >= options.max) {
        stoppedBy = 'max';
        break;
      }
      const { subject } = await history.message(sha);
      const t0 = Date.now();
      const judgement = await judgeCandidate(ctx, candidate);
      const durationMs = Date.now() - t0;
      counts.judgingMs += durationMs;
      await images.removeJudged();
      if (judgement.status === 'infrastructure') counts.infrastructure += 1;
      else {
        const record = recordOf(sha, subject, judgement, durationMs);
        await appendMinedRecord(options.out, record);
        judged.set(sha, record);
        if (judgement.status === 'mined') {
          counts.mined += 1;
          counts.minedNow += 1;
        }
      }
      counts.judgedNow += 1;
      const left = pending.length - index - 1;
      const eta = formatDuration(((Date.now() - started) / counts.judgedNow) * left);
      options.onLine(`[${index + 1}/${pending.length} candidates, ${commits.length} commits] ${sha.slice(0, 12)} ${describe(judgement)} · ${counts.mined} real bug(s) · ETA ${eta}  ${subject.slice(0, 60)}`);
    }
    await images.finish();
    if (stoppedBy === 'history-end' && options.max !== undefined && counts.mined >= options.max) stoppedBy = 'max';
    if (stoppedBy === 'history-end' && options.maxCommits !== undefined && commits.length >= options.maxCommits) stoppedBy = 'max-commits';
    const records = commits.flatMap((c) => judged.get(c.sha) ?? []);
    const fileCounts = await minedFileCounts(options.out, records.flatMap((record) => (record.bugId ? [record.bugId] : [])));
    return summarise({
      repo: options.repo.id, tip: options.repo.commit, commitsListed: commits.length, shallow: history.isShallow,
      records, infrastructure: counts.infrastructure, stoppedBy, fileCounts,
      thisRun: { judged: counts.judgedNow, mined: counts.minedNow, judgingMs: counts.judgingMs },
      removedImages: images.removed, ...(options.provider instanceof AheadProvider ? { sandboxesAhead: options.provider.counts } : {}),
    });
  } finally {
    await history.close();
  }
}

function recordOf(commit: string, subject: string, judgement: Exclude<Judgement, { status: 'infrastructure' }>, durationMs: number) {
  const mined = judgement.status === 'mined';
  return {
    commit,
    verdict: mined ? ('mined' as const) : ('skipped' as const),
    reason: mined ? null : (judgement as { reason: SkipReason }).reason,
    detail: judgement.detail,
    bugId: mined ? judgement.bugId : null,
    subject,
    durationMs,
  };
}

function describe(judgement: Judgement): string {
  if (judgement.status === 'mined') return `real bug ${judgement.bugId}`;
  if (judgement.status === 'infrastructure') return `not judged (infrastructure: ${judgement.detail}; a rerun tries it again)`;
  return `skipped: ${judgement.reason}`;
}
