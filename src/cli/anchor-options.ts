import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { loadAnchorSet } from '../selfplay/anchoring/load-anchor-set.js';
import { dockerClient, imageExists } from '../sandbox/docker/docker-client.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';
import type { AnchorBugs } from '../selfplay/anchoring/anchor-bug.js';
import type { AnchorSettings } from '../selfplay/anchoring/anchor-settings.js';
import { EngineError } from '../util/engine-error.js';

/** `--anchor-ratio` when `--anchor-set` is given alone: a quarter of the Solver groups. */
export const DEFAULT_ANCHOR_RATIO = 0.25;

export interface AnchorFlags {
  anchorSet?: string;
  anchorRatio?: number;
}

/** Parses `--anchor-ratio`: a number in (0, 1], else a usage error naming the flag. */
export function anchorRatio(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0 || parsed > 1) {
    throw new EngineError('usage', `--anchor-ratio: expected a number in (0, 1] (the share of each step's Solver groups that are anchor bugs), got "${value}"`);
  }
  return parsed;
}

/** Adds `--anchor-set` and `--anchor-ratio` (ssr selfplay). */
export function addAnchorOptions(command: Command): Command {
  return command
    .option('--anchor-set <dir|file.jsonl>', 'anchoring: real bugs mixed into the Solver groups (a mined set from ssr mine, a run or corpus dir, or a SWE-bench-format .jsonl; anything ssr eval --set takes), and shown to the history Injector as real fixes')
    .option('--anchor-ratio <p>', `with --anchor-set: the share of each step's order-1 episodes that solve an anchor bug instead of injecting, in (0, 1] (default ${DEFAULT_ANCHOR_RATIO})`, anchorRatio);
}

/**
 * The run's anchoring from its flags; null without `--anchor-set`.
 * @throws EngineError `usage` for `--anchor-ratio` without `--anchor-set`, or anchoring a solve-only (`--corpus`) run.
 */
export function anchorSettingsOf(flags: AnchorFlags & { corpus?: string }): AnchorSettings | null {
  if (flags.anchorSet === undefined) {
    if (flags.anchorRatio !== undefined) throw new EngineError('usage', '--anchor-ratio needs --anchor-set <dir|file.jsonl>: the real bugs to mix in');
    return null;
  }
  if (flags.corpus !== undefined) throw new EngineError('usage', '--anchor-set cannot be combined with --corpus: a solve-only run injects nothing for anchors to be mixed with');
  return { set: resolve(flags.anchorSet), ratio: flags.anchorRatio ?? DEFAULT_ANCHOR_RATIO };
}

/** The anchor set of a run's settings, read and checked before any episode (null without anchoring). */
export async function loadAnchorBugs(settings: { anchor: AnchorSettings | null; seed: number }, repos: readonly ResolvedRepo[], backend: SandboxBackend): Promise<AnchorBugs | null> {
  if (settings.anchor === null) return null;
  const exists = backend === 'docker' ? (ref: string) => imageExists(dockerClient(), ref) : null;
  return loadAnchorSet({ set: settings.anchor.set, repos, seed: settings.seed, imageExists: exists });
}
