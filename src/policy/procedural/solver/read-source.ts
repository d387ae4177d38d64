import { bash } from '../program.js';
import { ask, type SolverBudget, type Steps } from './ask.js';
import { FILE_BEGIN, FILE_END, readFileCommand } from './solver-commands.js';

/** A file longer than this many observations is left alone (it would eat the turn budget). */
const MAX_CHUNKS = 6;

/**
 * Read a code file through `bash`, chunk by chunk (each observation holds whole lines between
 * markers). Null when a read fails or the file is too long to be worth it.
 */
export async function* readSource(file: string, budget: SolverBudget): Steps<string | null> {
  const lines: string[] = [];
  let start = 1;
  for (let chunk = 0; chunk < MAX_CHUNKS; chunk++) {
    const observation = yield* ask(bash(readFileCommand(file, start), `Read ${file}${start > 1 ? ` from line ${start}` : ''} to find candidate repairs.`), budget);
    const body = observation.ok ? between(observation.text, FILE_BEGIN, FILE_END) : null;
    if (body === null) return null;
    if (body !== '') lines.push(...body.split('\n'));
    const next = /^#next (\d+)$/m.exec(observation.text.slice(observation.text.lastIndexOf(FILE_END)));
    if (!next) return `${lines.join('\n')}\n`;
    start = Number(next[1]);
  }
  return null;
}

/** The text between two marker lines, or null when either is missing. */
export function between(output: string, begin: string, end: string): string | null {
  const start = output.indexOf(`${begin}\n`);
  if (start < 0) return null;
  const from = start + begin.length + 1;
  const stop = output.indexOf(`\n${end}`, from - 1);
  if (stop < 0) return null;
  return stop < from ? '' : output.slice(from, stop);
}
