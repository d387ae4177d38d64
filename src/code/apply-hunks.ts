import { createRequire } from 'node:module';
import type { StructuredPatchHunk } from 'diff';

let applyPatch: typeof import('diff').applyPatch | undefined;

/**
 * `before` with `hunks` applied (jsdiff's applyPatch), or false where they do not apply. jsdiff
 * (19 modules) loads at the first call: the validator's checks import the doctest rules that use
 * it, but only a diff that touches a file holding doctests ever applies one.
 */
export function applyHunks(before: string, hunks: StructuredPatchHunk[]): string | false {
  applyPatch ??= (createRequire(import.meta.url)('diff') as typeof import('diff')).applyPatch;
  return applyPatch(before, { oldFileName: '', newFileName: '', oldHeader: '', newHeader: '', hunks });
}
