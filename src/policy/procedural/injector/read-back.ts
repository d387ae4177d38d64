import { gunzipSync } from 'node:zlib';
import { shellQuote } from '../../../util/shell-quote.js';
import { bash, type Steps } from '../program.js';

/**
 * Characters of a packed file printed per call: the bash tool cuts the middle out of an output
 * above 16 KiB, and a page shares its call with a few short lines (the listing's `@@tree`).
 */
export const READ_BACK_PAGE_CHARS = 15_000;
/** A file this long or shorter comes back as it is, in the same call. */
export const READ_BACK_PLAIN_BYTES = 14_000;
/** Pages read back at most (each costs a turn); a larger file is reported as too large, never cut. */
export const READ_BACK_MAX_PAGES = 24;

/**
 * Prints `file` whole, however long: as it is between `@@plain N` and `@@plain-end` when it fits
 * one output, else gzip'd and base64'd as `@@packed N` and the first `@@chunk` of N characters
 * ({@link readBack} reads the rest). A listing or a coverage summary cut at the tool's cap
 * silently dropped whatever came after the cut (networkx's code files past the 200th, mpmath's
 * coverage of libmp and matrices) and could end mid-range.
 */
export function readBackCommand(file: string): string {
  const path = shellQuote(file);
  const b64 = shellQuote(`${file}.b64`);
  return [
    `if [ "$(wc -c < ${path})" -le ${READ_BACK_PLAIN_BYTES} ]; then echo "@@plain $(wc -c < ${path})"; cat ${path}; echo; echo '@@plain-end';`,
    `else gzip -9c ${path} | base64 -w0 > ${b64} && echo "@@packed $(wc -c < ${b64})" && echo "@@chunk $(cut -c 1-${READ_BACK_PAGE_CHARS} ${b64})"; fi`,
  ].join('\n');
}

/** What {@link readBack} gives: the file's exact text, or why it did not come back. */
export type ReadBack = { status: 'ok'; text: string } | { status: 'failed'; reason: string };

/**
 * The text of the file a command ending in {@link readBackCommand} printed (`output` is that
 * command's output): read as it is, or its further pages read and unpacked (gzip's check says
 * whether it came back whole).
 */
export async function* readBack(file: string, output: string, why: string): Steps<ReadBack> {
  const plain = /^@@plain (\d+)\n/m.exec(output);
  if (plain) {
    const start = plain.index + plain[0].length;
    const end = output.lastIndexOf('\n@@plain-end');
    const text = end < start ? null : output.slice(start, end);
    // cat's text, then the newline echo adds: the length printed says nothing was cut or added.
    if (text === null || Buffer.byteLength(text) !== Number(plain[1])) return { status: 'failed', reason: `${file} did not come back whole` };
    return { status: 'ok', text };
  }
  const size = Number(/^@@packed (\d+)$/m.exec(output)?.[1] ?? NaN);
  if (!Number.isInteger(size) || size === 0) return { status: 'failed', reason: `${file} was not printed (${output.slice(-200).trim() || 'no output'})` };
  const pages = Math.ceil(size / READ_BACK_PAGE_CHARS);
  if (pages > READ_BACK_MAX_PAGES) return { status: 'failed', reason: `${file} is too large to read back (${pages} pages of ${READ_BACK_PAGE_CHARS} characters packed, at most ${READ_BACK_MAX_PAGES})` };
  let packed = chunkOf(output) ?? '';
  for (let from = READ_BACK_PAGE_CHARS + 1; from <= size && packed.length === from - 1; from += READ_BACK_PAGE_CHARS) {
    const page = yield bash(`echo "@@chunk $(cut -c ${from}-${from + READ_BACK_PAGE_CHARS - 1} ${shellQuote(`${file}.b64`)})"`, `${why} (from character ${from})`);
    packed += (page.ok ? chunkOf(page.text) : null) ?? '';
  }
  if (packed.length !== size) return { status: 'failed', reason: `${file} did not come back whole (${packed.length} of ${size} characters)` };
  try {
    return { status: 'ok', text: gunzipSync(Buffer.from(packed, 'base64')).toString('utf8') };
  } catch (error) {
    return { status: 'failed', reason: `${file} came back damaged (${(error as Error).message})` };
  }
}

function chunkOf(text: string): string | null {
  return /^@@chunk ([A-Za-z0-9+/=]*)$/m.exec(text)?.[1] ?? null;
}
