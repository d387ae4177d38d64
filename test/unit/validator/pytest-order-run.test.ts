import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderRunScript } from '../../../src/validator/order-run-script.js';
import { shellQuote } from '../../../src/util/shell-quote.js';

// Tests that tell a forked run from a new `python3 -m pytest` process, if they differ anywhere.
const TESTS = `import os
import signal
import sys

import local_module

STATE = []


def test_a_dirties_then_fails():
    STATE.append(1)
    assert False


def test_b_needs_clean_state():
    assert STATE == []


def test_c_sees_what_python_m_pytest_gives():
    assert sys.path[:2] == [os.path.join(os.getcwd(), "tests"), os.getcwd()]
    assert sys.argv[0].endswith(os.path.join("pytest", "__main__.py"))
    assert sys.modules["__main__"].__file__.endswith(os.path.join("pytest", "__main__.py"))
    assert local_module.VALUE == 1


def test_d_killed_by_a_signal():
    os.kill(os.getpid(), signal.SIGKILL)


def test_e_exits_the_interpreter():
    os._exit(3)
`;

const ID = (name: string): string => `tests/test_fork.py::${name}`;
const NAMES = ['test_a_dirties_then_fails', 'test_b_needs_clean_state', 'test_c_sees_what_python_m_pytest_gives', 'test_d_killed_by_a_signal', 'test_e_exits_the_interpreter'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-fork-order-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'local_module.py'), 'VALUE = 1\n');
  writeFileSync(join(dir, 'tests', 'test_fork.py'), TESTS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bash = async (script: string): Promise<string> => (await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })).stdout;

describe('the pytest order run (pytest_order_run.py: runs forked from one process that imported pytest)', { timeout: 300_000 }, () => {
  it('gives every test run alone the exit status a new `python3 -m pytest` process gives it, and runs the rest in reverse order', async () => {
    const ids = NAMES.map(ID);
    const inReverse = ids.slice(0, 3);
    const { testScript } = orderRunScript('pytest', ids, inReverse, ['tests/test_fork.py']);
    const log = await bash(testScript.replace('cd /repo', `cd ${shellQuote(dir)}`));
    const alone = [...log.matchAll(/^@@ssr-alone (\d+) (\S+)$/gm)].map((match) => [match[2], Number(match[1])]);

    // The reference: each run in a new interpreter, as the order run made them before the fork.
    const base = 'python3 -m pytest -p no:cacheprovider -p no:randomly';
    const reference = await bash(
      [`cd ${shellQuote(dir)}`, 'export PYTHONDONTWRITEBYTECODE=1 COLUMNS=250', ...ids.map((id) => `${base} -q ${shellQuote(id)} >/dev/null 2>&1; echo "${id} $?"`)].join('\n'),
    );
    const expected = reference.trim().split('\n').map((line) => [line.split(' ')[0], Number(line.split(' ')[1])]);
    expect(alone).toEqual(expected);
    // Alone, the test that needs clean state passes (no state leaks from one run to the next), the
    // genuine failure fails, a signal is 128+9, and the interpreter's own exit status comes through.
    expect(Object.fromEntries(alone)).toEqual({ [ids[0]!]: 1, [ids[1]!]: 0, [ids[2]!]: 0, [ids[3]!]: 137, [ids[4]!]: 3 });

    // In reverse order the dirtying test runs last: the -rA summary and exit status of one new process.
    const summary = (text: string): string[] => text.split('\n').filter((line) => /^(PASSED|FAILED) /.test(line)).map((line) => line.split(' - ')[0]!);
    const reversedPart = log.slice(log.indexOf('@@ssr-reversed-start'), log.indexOf('@@ssr-reversed-end'));
    const referenceReversed = await bash(`cd ${shellQuote(dir)}; export PYTHONDONTWRITEBYTECODE=1 COLUMNS=250; ${base} -rA ${[...inReverse].reverse().map(shellQuote).join(' ')} 2>&1; echo "@@exit $?"`);
    expect(summary(reversedPart)).toEqual(summary(referenceReversed));
    expect(summary(reversedPart)).toEqual([`PASSED ${ids[2]}`, `PASSED ${ids[1]}`, `FAILED ${ids[0]}`]);
    expect(log).toMatch(/^@@ssr-reversed-end 1$/m);
    expect(referenceReversed).toMatch(/^@@exit 1$/m);
  });
});
