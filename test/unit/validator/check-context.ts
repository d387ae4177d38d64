import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { thresholdsSchema, type Thresholds } from '../../../src/config/repos-schema.js';
import type { StatusMap } from '../../../src/harness/test-report.js';
import type { ValidationContext } from '../../../src/validator/check-types.js';
import type { StateRun } from '../../../src/validator/state-runs.js';

/** A test report of a state whose tests ran, with these statuses. */
export function ran(statuses: StatusMap): StateRun {
  return { status: 'ran', report: { statuses, timedOut: false, exitCode: 0, durationMs: 1, parserDurationMs: 1, logBytes: 0, log: '' } };
}

/**
 * A context whose state runs are given status maps (what the sandbox runs would have returned):
 * for checks that only judge runs. `runScript` is whatever the test supplies.
 */
export function contextWithRuns(input: {
  artifact?: Partial<BugArtifact>;
  thresholds?: Partial<Thresholds>;
  runs: Partial<Record<'original' | 'buggy' | 'weakened', StatusMap>>;
  runScript?: ValidationContext['runScript'];
}): ValidationContext {
  return {
    artifact: { bugInject: '', testWeaken: '', testFiles: ['tests/test_a.py'], testScript: 'python3 -m pytest -rA tests\n', testParser: '', ...input.artifact },
    thresholds: thresholdsSchema.parse(input.thresholds ?? {}),
    originalFiles: async () => new Set(),
    originalDoctestFiles: async () => new Map(),
    applyState: async () => ({ status: 'applied' }),
    run: async (state) => {
      const map = input.runs[state as 'original' | 'buggy' | 'weakened'];
      if (!map) throw new Error(`no run of ${state} in this test`);
      return ran(map);
    },
    runScript: input.runScript ?? (async () => { throw new Error('no script run in this test'); }),
  };
}
