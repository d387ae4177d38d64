import { EngineError } from '../util/engine-error.js';
import type { Candidate } from './mutation-operator.js';

type Edit = Pick<Candidate, 'start' | 'end' | 'replacement'>;

/** The source with one candidate applied. */
export function applyCandidate(source: string, candidate: Edit): string {
  return applyCandidates(source, [candidate]);
}

/** The source with several non-overlapping candidates applied (offsets refer to the original). */
export function applyCandidates(source: string, candidates: readonly Edit[]): string {
  const ordered = [...candidates].sort((a, b) => b.start - a.start);
  let out = source;
  let limit = source.length;
  for (const { start, end, replacement } of ordered) {
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= limit)) {
      throw new EngineError('usage', `mutation range ${start}-${end} is out of bounds or overlaps another (source has ${source.length} characters)`);
    }
    out = out.slice(0, start) + replacement + out.slice(end);
    limit = start;
  }
  return out;
}
