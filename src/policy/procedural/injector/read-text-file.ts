import { bash, type Steps } from '../program.js';
import { catCommand } from './injector-commands.js';

/** Bytes the bash tool shows uncut (16 KiB) with room to spare. */
const CHUNK_BYTES = 12_000;

/**
 * Read a repository file through `bash` exactly as it is (the end marker tells whether it ends
 * with a newline), in line chunks small enough that the tool never cuts its output. Null when the
 * file cannot be read or a chunk came back cut.
 */
export async function* readTextFile(path: string, size: { lines: number; bytes: number }, why: string): Steps<string | null> {
  const perChunk = Math.max(20, Math.floor((size.lines * CHUNK_BYTES) / Math.max(1, size.bytes)));
  const chunks = size.bytes <= CHUNK_BYTES ? 1 : Math.ceil(size.lines / perChunk) + 1;
  let text = '';
  for (let i = 0; i < chunks; i++) {
    const lines = chunks === 1 ? undefined : { from: i * perChunk + 1, to: (i + 1) * perChunk };
    const observation = yield bash(catCommand(path, lines), i === 0 ? why : `Read the next lines of ${path}.`);
    const part = readMarked(observation.text);
    if (!observation.ok || part === null) return null;
    text += part;
    // Fewer lines than asked for: that was the end of the file.
    if (lines && (part.match(/\n/g)?.length ?? 0) < lines.to - lines.from + 1) break;
  }
  return text;
}

/** The text before the `@@EOF` marker (`...\n@@EOF` keeps the newline; `...line@@EOF` had none). */
export function readMarked(output: string): string | null {
  if (output.includes('bytes of output; narrow the command')) return null;
  if (!output.endsWith('@@EOF')) return null;
  return output.slice(0, -'@@EOF'.length);
}
