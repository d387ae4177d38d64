import { shellQuoteAll } from '../../../util/shell-quote.js';
import { bash, type Steps } from '../program.js';
import { TEST_MAP, WORK_DIR } from './injector-commands.js';
import type { RepoFacts } from './repo-facts.js';
import { parseTestCoverage, type CoverageRead } from './covering-tests.js';
import { groupOfFile } from './test-suite.js';

/**
 * Which test files execute each line of `files` (the code files read to pick changes), from the
 * traced clean run's map, in one short command. Unusable (every candidate then runs the whole
 * suite) when the trace did not finish intact, or when it did not run every test file the clean
 * run ran: a test file missing from the map would never be chosen, whatever it executes.
 */
export async function* queryTestCoverage(facts: RepoFacts, files: readonly string[]): Steps<CoverageRead> {
  if (facts.coverage === null) return { status: 'unusable', reason: 'the clean run could not be traced (or, JS, its runner transforms the code)' };
  const command = `cd /repo && python3 ${WORK_DIR}/trace_lines.py --query ${TEST_MAP} ${shellQuoteAll(files)} 2>&1 | head -c 15000`;
  const observation = yield bash(command, 'Look up which test files execute each line of the files I read, to try each change against those tests only.');
  const read = parseTestCoverage(observation.text);
  if (read.status !== 'ok') return read;
  const traced = new Set([...read.coverage.testFiles].map((file) => groupOfFile(facts.suite, file)));
  const missing = [...facts.baseline.groups.keys()].find((group) => !traced.has(group));
  if (missing !== undefined) return { status: 'unusable', reason: `the traced run did not run ${missing}, which the clean run ran` };
  return read;
}
