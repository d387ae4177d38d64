import { bash, type Steps } from '../program.js';
import { pageCommand } from './injector-commands.js';

/** Bytes per page: under the bash tool's 16 KiB output cap (16,384 bytes) with room for the page marker. */
export const PAGE_BYTES = 16_000;
/** Pages read at most (~1.2 MB): a file bigger than that is not worth the turns. */
const MAX_PAGES = 100;

/** One page as {@link pageCommand} prints it: the bytes, then where the next page starts. */
export interface Page {
  text: string;
  next: number;
  total: number;
}

/**
 * Read a repository file through `bash` exactly as it is, in byte pages small enough that the
 * tool never cuts its output: a page ends at a UTF-8 character boundary, not at a line, so a
 * test file of a few very long lines (generated data, 100 kB on one line) reads as well as a
 * short one. Null when the file cannot be read, a page came back cut, or it needs more than
 * {@link MAX_PAGES} pages.
 */
export async function* readTextFile(path: string, why: string): Steps<string | null> {
  let text = '';
  let offset = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const observation = yield bash(pageCommand(path, offset, PAGE_BYTES), page === 0 ? why : `Read the next part of ${path} (from byte ${offset}).`);
    const read = observation.ok ? readPage(observation.text) : null;
    if (read === null) return null;
    text += read.text;
    if (read.next >= read.total) return text;
    // No progress (a page that cannot hold one character) would loop forever.
    if (read.next <= offset) return null;
    offset = read.next;
  }
  return null;
}

/** The bytes before {@link pageCommand}'s `@@PAGE NEXT TOTAL` marker, which must end the output. */
export function readPage(output: string): Page | null {
  if (wasCut(output)) return null;
  const marker = /@@PAGE (\d+) (\d+)$/.exec(output);
  if (!marker) return null;
  return { text: output.slice(0, marker.index), next: Number(marker[1]), total: Number(marker[2]) };
}

/** Whether the bash tool cut the middle out of `output` (a page is sized never to need it; a file may well mention the words). */
export function wasCut(output: string): boolean {
  return /\n\[\.\.\. [\d,]+ bytes (?:\(\d+ lines\) )?cut from the middle of [\d,]+ bytes of output; /.test(output);
}
