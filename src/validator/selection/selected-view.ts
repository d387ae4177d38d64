import type { StatusMap } from '../../harness/test-report.js';
import type { StateRun } from '../state-runs.js';
import { jsTestFileOf } from '../test-file-of.js';

/**
 * A state's full-suite map, from a selected run: the selected tests' statuses from the state's
 * run, every other test's from O's full run. Sound when the tests left out do not reach the
 * change, which the audit (selectionMisses) checks on B.
 *
 * @param originalFull O's full run; @param originalSelected O's run with the same selection
 *   (which ids the selection holds); @param selected the state's selected run.
 */
export function mergeSelected(originalFull: StateRun, originalSelected: StateRun, selected: StateRun): StateRun {
  if (selected.status !== 'ran') return selected;
  if (originalFull.status !== 'ran') return originalFull;
  if (originalSelected.status !== 'ran') return originalSelected;
  const held = originalSelected.report.statuses;
  const outside = Object.entries(originalFull.report.statuses).filter(([id]) => !(id in held));
  return { ...selected, report: { ...selected.report, statuses: { ...Object.fromEntries(outside), ...selected.report.statuses } } };
}

/**
 * A full run's statuses as a selected run would have given them, read through O's full run: the
 * statuses of the tests the selection holds (O's selected run's ids), O's full statuses for the rest.
 */
export function asSelected(originalFull: StatusMap, originalSelected: StatusMap, full: StatusMap): StatusMap {
  const out: StatusMap = {};
  // A JS selection runs whole test files: an id O never had (a file that no longer loads reports
  // the file itself) is the selected run's too when its file is one the selection ran.
  const keptJsFiles = new Set(Object.keys(originalSelected).flatMap((id) => jsTestFileOf(id) ?? []));
  const keptJs = (id: string): boolean => {
    const file = jsTestFileOf(id);
    return file !== null && keptJsFiles.has(file);
  };
  const selects = (id: string): boolean => id in originalSelected || (!(id in originalFull) && keptJs(id));
  for (const [id, status] of Object.entries(originalFull)) if (!(id in originalSelected)) out[id] = status;
  for (const [id, status] of Object.entries(full)) if (selects(id)) out[id] = status;
  return out;
}

/**
 * What the selection got wrong, as test ids: on O, a selected test whose status differs from the
 * full run (selection changed what a test does); on B, a test whose merged status differs from
 * the full run on B (a test left out that the bug reaches: a dynamic import, a plugin, data).
 */
export function selectionMisses(maps: { originalFull: StatusMap; originalSelected: StatusMap; buggyMerged: StatusMap; buggyFull: StatusMap }): string[] {
  const { originalFull, originalSelected, buggyMerged, buggyFull } = maps;
  const onOriginal = Object.keys(originalSelected).filter((id) => originalFull[id] !== originalSelected[id]);
  const ids = new Set([...Object.keys(buggyMerged), ...Object.keys(buggyFull)]);
  const onBuggy = [...ids].filter((id) => buggyMerged[id] !== buggyFull[id]);
  return [...new Set([...onOriginal, ...onBuggy])].sort();
}
