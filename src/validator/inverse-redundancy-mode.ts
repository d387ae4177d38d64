/**
 * How the inverse-redundancy check (method §3.7) treats a changed file that fixes no failing test
 * when reverted alone. `enforce` rejects the bug: an Injector that pads its bug with edits the
 * tests never notice is what the check is there to catch. `record` keeps it with the finding in
 * the check's reason and evidence: a real fix commit was written by a person to fix a bug, and
 * its parts often only fix it together (a function and its caller, a fix with a refactor it
 * needed), so rejecting those would leave mined sets with one-file bugs only.
 */
export type InverseRedundancyMode = 'enforce' | 'record';

/** Kinds of bug that are real fixes, not an Injector's: `ssr mine`'s bugs (metadata strategy and kind `mined`). */
const REAL_FIX_KINDS: ReadonlySet<string> = new Set(['mined']);

/** The mode for a bug of this kind (an eval instance's `kind`, a stored bug's strategy): `record` for real fixes only. Pure. */
export function inverseRedundancyFor(kind: string | null | undefined): InverseRedundancyMode {
  return kind !== null && kind !== undefined && REAL_FIX_KINDS.has(kind) ? 'record' : 'enforce';
}

