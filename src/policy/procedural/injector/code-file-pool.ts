import type { SeededRng } from '../../../util/seeded-rng.js';
import type { RepoFacts, SourceFile } from './repo-facts.js';

/**
 * Bytes of code the Injector reads at most, over all the files it reads: a budget, not a per-file
 * cap, so that a library whose code is one big module (mock.py, 100 kB; more-itertools' more.py,
 * 120 kB) is still read (in pages), while the reads stay well inside the context.
 */
export const READ_BUDGET_BYTES = 160_000;

/** A code file the Injector may read: its size and how many of its lines the tests execute. */
export interface PoolFile {
  path: string;
  bytes: number;
  lines: number;
  covered: number | undefined;
}

/**
 * Whether a code file of this size may be read at all: at least 10 lines, within the budget.
 * Discovery traces only such files: no other can become a candidate, whatever the tests run.
 */
export function mayBeRead(size: Pick<SourceFile, 'lines' | 'bytes'> | undefined): boolean {
  return size !== undefined && size.lines >= 10 && size.bytes <= READ_BUDGET_BYTES;
}

/** The code files worth reading: {@link mayBeRead}, and reached by the tests when coverage is known. */
export function codeFilePool(facts: Pick<RepoFacts, 'codeFiles' | 'sourceFiles' | 'coverage'>): PoolFile[] {
  return facts.codeFiles.flatMap((path) => {
    const size = facts.sourceFiles.get(path);
    const covered = facts.coverage?.get(path)?.size;
    if (!size || !mayBeRead(size) || (facts.coverage !== null && (covered ?? 0) === 0)) return [];
    return [{ path, bytes: size.bytes, lines: size.lines, covered }];
  });
}

/**
 * Draw the next file to read, weighted by its covered lines (else its size), and take it out of
 * the pool; a drawn file larger than what is left of the budget is dropped and another drawn.
 * @returns undefined when no file fits.
 */
export function drawCodeFile(pool: PoolFile[], rng: SeededRng, budgetLeft: number): PoolFile | undefined {
  while (pool.length > 0) {
    const weights = pool.map((f) => f.covered ?? f.lines);
    let draw = rng.next() * weights.reduce((a, b) => a + b, 0);
    const index = Math.max(0, weights.findIndex((w) => (draw -= w) < 0));
    const [file] = pool.splice(index, 1);
    if (file!.bytes <= budgetLeft) return file;
  }
  return undefined;
}
