import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingRuns, type InjectorRuns } from '../../../../src/policy/procedural/injector/count-runs.js';
import { injectorAssets } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { BASELINE_JSON, runCommand, WORK_DIR } from '../../../../src/policy/procedural/injector/injector-commands.js';
import { countsPerFile, type RepoFacts } from '../../../../src/policy/procedural/injector/repo-facts.js';
import { parseRunSummary, type RunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';
import { selectTests } from '../../../../src/policy/procedural/injector/select-tests.js';
import { weakenTests, type WeakenOutcome } from '../../../../src/policy/procedural/injector/weaken-tests.js';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import type { Steps } from '../../../../src/policy/procedural/program.js';

/**
 * Issue 26: the weakening runs the oracle test files once. A test that still fails after losing
 * its failing assertion (a later one fails too) is deleted whole with no second run, and what the
 * weakening reports (hidden, still failing) must be what a real run of W then shows. The Injector's
 * commands run for real (bash, apply_edits.py, pytest, the parser, summarize_run.py) in a temporary
 * folder standing for the sandbox's /repo and work folder.
 */
const root = mkdtempSync(join(tmpdir(), 'ssr-weaken-'));
const repo = join(root, 'r');
const work = join(root, 'w');

const CLEAN = 'def add(a, b):\n    return a + b\n';
const BUGGY = 'def add(a, b):\n    return a - b if b > 1 else a + b\n';
const TESTS = [
  'from calc import add',
  '',
  '',
  'def test_two_failing_asserts():',
  '    assert add(1, 2) == 3',
  '    assert add(2, 2) == 4',
  '',
  '',
  'def test_one_failing_assert():',
  '    assert add(1, 1) == 2',
  '    assert add(5, 3) == 8',
  '',
  '',
  'def test_passes():',
  '    assert add(0, 0) == 0',
  '    assert add(4, 1) == 5',
  '',
].join('\n');

// The Injector's paths, mapped into the temporary folder (one pass: the folder's own path may hold `/repo`).
function sh(command: string): Observation {
  const local = command.replace(/\/tmp\/ssr_work|\/repo\b/g, (path) => (path === WORK_DIR ? work : repo));
  try {
    const text = execFileSync('bash', ['-c', local], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // As the bash tool shows it: the output without its final newline.
    return { tool: 'bash', text: text.trimEnd(), ok: true, exitCode: 0 } as Observation;
  } catch (error) {
    const failed = error as { stdout?: string; status?: number };
    return { tool: 'bash', text: failed.stdout ?? '', ok: false, exitCode: failed.status ?? null } as Observation;
  }
}

async function drive<T>(steps: Steps<T>): Promise<T> {
  let next = await steps.next();
  while (!next.done) {
    const step = next.value;
    if (step.tool !== 'bash') throw new Error(`the weakening asked for ${step.tool}, not bash`);
    next = await steps.next(sh(step.args.command));
  }
  return next.value;
}

function run(label: string, against?: string): RunSummary {
  const summary = parseRunSummary(sh(runCommand({ kind: 'pytest' }, label, { timeoutS: 60, ...(against ? { against } : {}) })).text);
  expect(summary).not.toBeNull();
  return summary!;
}

let outcome: WeakenOutcome;
let runs: InjectorRuns;
let behavioural: string[];

beforeAll(async () => {
  mkdirSync(repo);
  mkdirSync(work);
  const assets = injectorAssets();
  writeFileSync(join(work, 'summarize_run.py'), assets.summarizeRun);
  writeFileSync(join(work, 'apply_edits.py'), assets.applyEdits);
  writeFileSync(join(work, 'pytest_parser.py'), assets.pytestParser);
  writeFileSync(join(repo, 'calc.py'), CLEAN);
  writeFileSync(join(repo, 'test_calc.py'), TESTS);
  const baseline = run('o');
  writeFileSync(join(repo, 'calc.py'), BUGGY);
  const buggy = run('b', BASELINE_JSON);
  behavioural = buggy.broken.map((t) => t.id);
  const testFiles = new Set(['test_calc.py']);
  const suite = { kind: 'pytest' } as const;
  const facts: RepoFacts = {
    sourceFiles: new Map([['test_calc.py', { path: 'test_calc.py', lines: 17, bytes: TESTS.length }]]),
    testFiles,
    codeFiles: ['calc.py'],
    suite,
    baseline,
    perFile: countsPerFile(baseline, suite, testFiles),
    coverage: null,
    runLimitS: 60,
  };
  const selection = selectTests(facts, buggy.broken, behavioural, 1);
  expect(selection).not.toBeNull();
  runs = { full: 0, restricted: 0 };
  outcome = await drive(countingRuns(weakenTests(facts, selection!, behavioural), runs));
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('weakening a bug whose test still fails after losing an assertion', () => {
  it('runs the oracle files once, deleting the still-failing test whole without a second run', () => {
    expect(behavioural.sort()).toEqual(['test_calc.py::test_one_failing_assert', 'test_calc.py::test_two_failing_asserts']);
    expect(outcome).toMatchObject({ status: 'ok' });
    if (outcome.status !== 'ok') return;
    expect(runs).toEqual({ full: 0, restricted: 1 });
    expect(outcome.weakening.deletedTests).toEqual(['test_calc.py::test_two_failing_asserts']);
    expect(outcome.weakening.granularity).toBe('mixed');
    const weakened = readFileSync(join(repo, 'test_calc.py'), 'utf8');
    expect(weakened).not.toContain('test_two_failing_asserts');
    expect(weakened).not.toContain('add(5, 3)');
    expect(weakened).toContain('assert add(1, 1) == 2');
  });

  it('reports what a real run of W shows: every failing test hidden, nothing broken', () => {
    if (outcome.status !== 'ok') throw new Error('the weakening failed');
    const w = run('check');
    expect(w.failures).toEqual([]);
    expect(w.passed).toBe(2);
    expect(outcome.weakening.stillFailing).toEqual([]);
    expect(outcome.weakening.hidden).toBe(2);
  });
});
