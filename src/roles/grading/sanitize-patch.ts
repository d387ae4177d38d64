import { normalizeTestFilePath } from '../../artifact/test-files-list.js';
import { isDiffParseError } from '../../code/diff-parse-error.js';
import { formatGitDiff } from '../../code/format-git-diff.js';
import { parseUnifiedDiff } from '../../code/unified-diff.js';
import { classifySection } from './classify-section.js';
import type { DroppedSection } from './drop-reason.js';

/**
 * The largest patch grading reads: 1 MiB. A bug fix is a few KiB; a bigger patch is a rewrite or
 * vendored data, and parsing or applying it would cost more than any attempt is worth.
 */
export const MAX_PATCH_BYTES = 1024 * 1024;

/** Why a patch is refused as a whole (−1, nothing applied). */
export type PatchRejection = 'patch-too-large' | 'patch-empty' | 'patch-crlf' | 'patch-no-trailing-newline' | 'patch-malformed' | 'patch-binary' | 'no-code-change';

/** The patch grading applies, or why there is none; `dropped` lists every section left out. */
export type SanitizedPatch =
  | { status: 'ok'; patch: string; dropped: DroppedSection[] }
  | { status: 'rejected'; code: PatchRejection; reason: string; dropped: DroppedSection[] };

const reject = (code: PatchRejection, reason: string, dropped: DroppedSection[] = []): SanitizedPatch => ({ status: 'rejected', code, reason, dropped });
/** A header line (file or hunk) that ends in CR: the whole patch went through a CRLF conversion. */
const CRLF_HEADER = /^(?:diff --git |--- |\+\+\+ |@@ ).*\r$/m;

/**
 * Split a Solver's patch into what grading applies (changes to code files) and what it drops,
 * each dropped section with a machine-readable reason ({@link classifySection}); refuse a patch
 * that is too large, empty, CRLF-converted, cut short, malformed or binary with a precise reason.
 * `runnerNamed`: files the ORIGINAL tree's runner configs name as machinery (setup files,
 * reporters; see runnerNamedFiles), dropped as runner config whatever their names.
 * Pure: nothing is applied or touched here.
 */
export function sanitizePatch(patch: string, testFiles: readonly string[], runnerNamed: ReadonlySet<string> = new Set()): SanitizedPatch {
  const bytes = Buffer.byteLength(patch);
  if (bytes > MAX_PATCH_BYTES) return reject('patch-too-large', `the patch is ${bytes} bytes, over the ${MAX_PATCH_BYTES}-byte cap`);
  if (patch.trim() === '') return reject('patch-empty', 'the patch is empty: it changes nothing');
  if (CRLF_HEADER.test(patch)) return reject('patch-crlf', 'the patch has CRLF line endings on its headers (converted text, not what git diff prints)');
  if (!patch.endsWith('\n')) return reject('patch-no-trailing-newline', 'the patch does not end with a newline: its last line is cut short');
  let files;
  try {
    files = parseUnifiedDiff(patch).files;
  } catch (error) {
    if (isDiffParseError(error)) return reject('patch-malformed', `the patch is not a valid unified diff: ${error.message}`);
    throw error;
  }
  if (files.length === 0) return reject('patch-empty', 'the patch holds no file sections: it changes nothing');
  const binary = files.find((file) => file.binary);
  if (binary) return reject('patch-binary', `the patch changes ${binary.newPath ?? binary.oldPath} as binary data ("GIT binary patch"); only text changes to code files count`);

  const listed = new Set(testFiles.map(normalizeTestFilePath));
  const dropped: DroppedSection[] = [];
  const kept = files.filter((file) => {
    const reason = classifySection(file, listed, runnerNamed);
    if (reason !== null) dropped.push({ path: file.newPath ?? file.oldPath ?? '', reason });
    return reason === null;
  });
  if (kept.length === 0) {
    const what = dropped.map((section) => `${section.path} (${section.reason})`).join(', ');
    return reject('no-code-change', `nothing is left once the sections that cannot count are dropped: ${what}`, dropped);
  }
  return { status: 'ok', patch: dropped.length === 0 ? patch : formatGitDiff(kept), dropped };
}
