import { Option } from 'commander';
import type { Limits } from '../config/repos-schema.js';
import { flagSecondsToMs, resolveTestTimeoutMs } from '../config/test-timeout.js';
import { positiveInt } from './common-options.js';

/** Flags of {@link testTimeoutOption}. */
export interface TestTimeoutFlags {
  testTimeout?: number;
}

/**
 * The shared `--test-timeout <seconds>` flag (one declaration for every command that runs
 * test_script.sh); `subject` names what it limits in the help. `ssr init` declares its own: there
 * the flag is where the golden gate starts, not an override.
 */
export function testTimeoutOption(subject = 'one test_script.sh run'): Option {
  return new Option('--test-timeout <seconds>', `time limit of ${subject} (default: the repo's test_timeout_s)`).argParser(positiveInt('--test-timeout'));
}

/** The test-script limit a command runs with, ms: `--test-timeout`, else the repo's. */
export function testTimeoutMsOf(flags: TestTimeoutFlags, repo: { limits: Pick<Limits, 'test_timeout_s'> }): number {
  return resolveTestTimeoutMs(repo, flagSecondsToMs(flags.testTimeout));
}
