/** What pruning a repo's stale sandbox images or templates did. */
export interface PruneResult {
  /** Tags or directories removed. */
  removed: string[];
  /** Stale ones left in place, with why (in use, being built). */
  kept: { ref: string; reason: string }[];
}
