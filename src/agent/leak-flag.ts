import { z } from 'zod';

/**
 * What a Solver must not reach (method §4: it sees the buggy repo, its history wiped, and nothing
 * of the artifact): the repository's history or objects, the artifact's files, the host outside
 * the repo, the network, package downloads.
 */
export const LEAK_KINDS = ['history', 'artifact', 'outside-repo', 'network', 'package-download'] as const;
export type LeakKind = (typeof LEAK_KINDS)[number];

/** One attempt to reach what the Solver must not, found in its trajectory by `scanLeaks`. */
export const leakFlagSchema = z.object({
  kind: z.enum(LEAK_KINDS),
  /** The 1-based turn of the tool call. */
  turn: z.number().int().positive(),
  /** The offending call: the bash command, or `<tool> <path>` (capped). */
  command: z.string(),
  /** What it reached for, in words. */
  what: z.string(),
});
export type LeakFlag = z.infer<typeof leakFlagSchema>;

/** What `--leak-policy` does with a flagged attempt: record it, or also make it earn −1. */
export const LEAK_POLICIES = ['flag', 'fail'] as const;
export type LeakPolicy = (typeof LEAK_POLICIES)[number];

/**
 * What an attempt's leak flags cost it under `policy`: null when nothing (no flag, or `flag`),
 * else the reason it earns −1 instead of being graded, naming the first leak. One rule for
 * `ssr solve` and self-play.
 */
export function leakPenalty(policy: LeakPolicy, flags: readonly LeakFlag[]): string | null {
  const first = flags[0];
  if (policy !== 'fail' || first === undefined) return null;
  const more = flags.length > 1 ? ` (+${flags.length - 1} more)` : '';
  return `leak-${first.kind}: the Solver reached for ${first.what} at turn ${first.turn}: ${first.command.split('\n')[0]}${more}`;
}
