import { REPO_DIR } from '../sandbox/sandbox.js';

/**
 * A self-contained bash script that runs an instance's tests the way ssr does (method §2): the
 * artifact's test_script.sh on the repository at {@link REPO_DIR}, its whole log fed to
 * test_parser.py, whose JSON status map `{test id: "passed" | "failed"}` is printed on stdout.
 * The two files travel base64-encoded, so no content can break the script's quoting. It only runs
 * the tests: applying `patch` / `test_patch` is the harness's job, as in SWE-bench.
 */
export function evalScript(testScript: string, testParser: string, timeoutS: number): string {
  const b64 = (text: string): string => Buffer.from(text).toString('base64');
  return [
    '#!/usr/bin/env bash',
    '# ssr instance tests: prints {"<test id>": "passed" | "failed"} as JSON on stdout (missing = failed).',
    'set -u',
    'scratch=$(mktemp -d)',
    `printf '%s' '${b64(testScript)}' | base64 -d > "$scratch/test_script.sh"`,
    `printf '%s' '${b64(testParser)}' | base64 -d > "$scratch/test_parser.py"`,
    `cd ${REPO_DIR}`,
    `timeout -s KILL ${Math.ceil(timeoutS)} bash "$scratch/test_script.sh" > "$scratch/test.log" 2>&1 < /dev/null`,
    'python3 "$scratch/test_parser.py" < "$scratch/test.log"',
    '',
  ].join('\n');
}
