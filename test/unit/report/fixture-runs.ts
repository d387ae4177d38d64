import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The run-dir fixtures (test/fixtures/runs/README.md). */
export const RUNS = fileURLToPath(new URL('../../fixtures/runs/', import.meta.url));

export const fixtureRun = (name: 'selfplay-trainer' | 'removal-torn'): string => join(RUNS, name);
