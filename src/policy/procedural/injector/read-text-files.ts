import { shellQuote, shellQuoteAll } from '../../../util/shell-quote.js';
import { bash, type Steps } from '../program.js';
import { PAGE_BYTES, readTextFile, wasCut } from './read-text-file.js';

/** A file to read and its size in bytes when known (the listing's); unknown: read alone. */
export interface FileToRead {
  path: string;
  bytes?: number;
}

/** Bytes a file's header line takes at most beside its path (`@@FILE <bytes> <path>`). */
const HEADER_BYTES = 24;

// Prints each file as `@@FILE <bytes> <path>`, its exact bytes and a newline (`@@NOFILE <path>`
// when it cannot be read), then `@@END`: sizes, not separators, delimit the files, so any content reads back.
const FILES_SCRIPT = [
  'import sys',
  'out = sys.stdout.buffer',
  'for p in sys.argv[1:]:',
  '    try: b = open(p, "rb").read()',
  '    except OSError: out.write(b"@@NOFILE " + p.encode() + b"\\n"); continue',
  '    out.write(b"@@FILE %d " % len(b) + p.encode() + b"\\n" + b + b"\\n")',
  'out.write(b"@@END\\n")',
].join('\n');

/**
 * Read files through `bash` as a model reads small files whole, several in one call: files whose
 * sizes together fit one page ({@link PAGE_BYTES}) share a `cat`-like command (see groupsOfAPage);
 * a larger file, or one of unknown size, is read alone in pages ({@link readTextFile}); a shared
 * read that did not come back intact is repeated file by file. Each path maps to its exact text,
 * or null when it could not be read.
 */
export async function* readTextFiles(files: readonly FileToRead[], why: (paths: string[]) => string): Steps<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const group of groupsOfAPage(files)) {
    const paths = group.map((file) => file.path);
    if (paths.length > 1) {
      const observation = yield bash(`cd /repo && python3 -c ${shellQuote(FILES_SCRIPT)} ${shellQuoteAll(paths)}`, why(paths));
      const read = observation.ok ? parseFiles(observation.text) : null;
      if (read && paths.every((path) => read.has(path))) {
        for (const path of paths) out.set(path, read.get(path)!);
        continue;
      }
    }
    for (const path of paths) out.set(path, yield* readTextFile(path, why([path])));
  }
  return out;
}

/**
 * The calls to read `files` in: each file that fits a page goes into the first group with room
 * left for it (callers keep their own order of the texts, so the reading order is free); a file
 * of unknown size, or one larger than a page, goes alone.
 */
export function groupsOfAPage(files: readonly FileToRead[]): FileToRead[][] {
  const groups: Array<{ files: FileToRead[]; used: number }> = [];
  for (const file of files) {
    const cost = file.bytes === undefined ? Infinity : file.bytes + Buffer.byteLength(file.path) + HEADER_BYTES;
    const group = cost <= PAGE_BYTES ? groups.find((g) => g.used + cost <= PAGE_BYTES) : undefined;
    if (group) {
      group.files.push(file);
      group.used += cost;
    } else groups.push({ files: [file], used: cost });
  }
  return groups.map((group) => group.files);
}

/** The files {@link FILES_SCRIPT} printed, by path (null: it could not read one); null when the output is not whole. */
export function parseFiles(output: string): Map<string, string | null> | null {
  if (wasCut(output)) return null;
  const bytes = Buffer.from(output, 'utf8');
  const files = new Map<string, string | null>();
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, at);
    const header = bytes.subarray(at, end < 0 ? bytes.length : end).toString('utf8');
    if (header === '@@END') return files;
    if (end < 0) return null;
    const missing = /^@@NOFILE (.+)$/.exec(header);
    if (missing) {
      files.set(missing[1]!, null);
      at = end + 1;
      continue;
    }
    const file = /^@@FILE (\d+) (.+)$/.exec(header);
    const size = Number(file?.[1]);
    // The size must land on the newline that closes the file (a byte the terminal replaced would shift it).
    if (!file || bytes[end + 1 + size] !== 0x0a) return null;
    files.set(file[2]!, bytes.subarray(end + 1, end + 1 + size).toString('utf8'));
    at = end + 2 + size;
  }
}
