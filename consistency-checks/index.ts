import type { ConsistencyCheck } from '../src/validator/check-types.js';
import { concealmentCheck } from './concealment.js';
import { existenceCheck } from './existence.js';
import { failingTestsCheck } from './failing-tests.js';
import { inverseRedundancyCheck } from './inverse-redundancy.js';
import { minFilesCheck } from './min-files.js';
import { parserCheck } from './parser.js';
import { testScriptCheck } from './test-script.js';

/** SPEC §3, in run order: the first `fail` rejects the artifact. */
export const consistencyChecks: readonly ConsistencyCheck[] = [
  existenceCheck,
  parserCheck,
  testScriptCheck,
  minFilesCheck,
  failingTestsCheck,
  concealmentCheck,
  inverseRedundancyCheck,
];
