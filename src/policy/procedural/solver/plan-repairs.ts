import type { Candidate } from '../../../mutation/mutation-operator.js';
import { languageOfPath } from '../../../code/source-language.js';
import { repairCandidates, repairOperatorsFor, type RepairOperator } from '../../../mutation/repair-candidates.js';
import type { SeededRng } from '../../../util/seeded-rng.js';
import { editBlockFor, type EditBlock } from './edit-block.js';
import type { SuspiciousLine } from './rank-lines.js';

/** One candidate repair, ready to be made with one `edit` call. */
export interface RepairAttempt {
  file: string;
  candidate: Candidate;
  edit: EditBlock;
  /** Higher first. */
  priority: number;
  /** Identifies the edit by its text, so the same edit is never tried twice. */
  key: string;
}

/**
 * How much each step down the operator list (cheap, common repairs first) costs in line score:
 * an operator ten steps down is tried after a plain swap on a line 0.4 less suspicious.
 */
export const TIER_PENALTY = 0.04;

export interface PlanOptions {
  rng: SeededRng;
  /** Keys of edits already tried. */
  tried?: ReadonlySet<string>;
  /** Consider only this many of the most suspicious lines (default 80). */
  maxLines?: number;
}

/**
 * Order the candidate repairs at the suspicious lines: priority = line score − TIER_PENALTY ×
 * operator rank in the file's language's catalogue (see `repairOperatorsFor`); ties go to a seeded order of the lines, then to
 * the catalogue's own order. Lines of files without a source, or of a language the engine does not
 * parse, are skipped; each edit comes once.
 */
export function planRepairs(lines: readonly SuspiciousLine[], sources: ReadonlyMap<string, string>, options: PlanOptions): RepairAttempt[] {
  const planned: { attempt: RepairAttempt; tie: number; order: number }[] = [];
  const seen = new Set(options.tried ?? []);
  let order = 0;
  for (const suspicious of lines.slice(0, options.maxLines ?? 80)) {
    const source = sources.get(suspicious.file);
    const language = languageOfPath(suspicious.file);
    if (source === undefined || language === undefined) continue;
    const catalogue = repairOperatorsFor(language);
    const tie = options.rng.fork(`${suspicious.file}:${suspicious.line}`).next();
    for (const candidate of repairCandidates(source, [suspicious.line], { language })) {
      const edit = editBlockFor(source, candidate);
      if (!edit) continue;
      const key = repairKey(suspicious.file, edit);
      if (seen.has(key)) continue;
      seen.add(key);
      const tier = catalogue.indexOf(candidate.operator as RepairOperator);
      const priority = suspicious.score - TIER_PENALTY * Math.max(0, tier);
      planned.push({ attempt: { file: suspicious.file, candidate, edit, priority, key }, tie, order: order++ });
    }
  }
  return planned
    .sort((a, b) => b.attempt.priority - a.attempt.priority || a.tie - b.tie || a.order - b.order)
    .map((entry) => entry.attempt);
}

export function repairKey(file: string, edit: Pick<EditBlock, 'search' | 'replace'>): string {
  return `${file}\0${edit.search}\0${edit.replace}`;
}
