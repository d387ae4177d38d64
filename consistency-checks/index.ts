import type { ConsistencyCheck } from '../src/validator/check-types.js';
import { breadthCheck } from './breadth.js';
import { concealmentCheck } from './concealment.js';
import { existenceCheck } from './existence.js';
import { failingTestsCheck } from './failing-tests.js';
import { inverseRedundancyCheck } from './inverse-redundancy.js';
import { minFilesCheck } from './min-files.js';
import { orderIndependenceCheck } from './order-independence.js';
import { parserCheck } from './parser.js';
import { testScriptCheck } from './test-script.js';

/**
 * method §3, in run order, plus the bug-quality checks of issue 14 (breadth right after the failing
 * tests it reads; order-independence last, as it costs a run of its own): the first `fail` rejects.
 */
export const consistencyChecks: readonly ConsistencyCheck[] = [
  existenceCheck,
  parserCheck,
  testScriptCheck,
  minFilesCheck,
  failingTestsCheck,
  breadthCheck,
  concealmentCheck,
  inverseRedundancyCheck,
  orderIndependenceCheck,
];
