import type { StatusMap } from '../../harness/test-report.js';
import type { StateRun } from '../state-runs.js';

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
