import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../src/code/unified-diff.js';
import { listCandidates } from '../../src/mutation/mutate.js';
import { applyCandidate } from '../../src/mutation/apply-candidates.js';
import type { Candidate } from '../../src/mutation/mutation-operator.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import { dockerTemplate, exampleRepo } from '../helpers/sandboxes.js';
import { buildScenario, passingOnOriginal, solveAndGrade, type Scenario, type ScenarioContext } from '../../scripts/lib/procedural-solver-scenario.js';

const ARTIFACTS = join(import.meta.dirname, '../fixtures/artifacts');

/** The catalogue mutation by `operator` that `match` picks (given the text of its line), as a mutate function. */
function catalogueMutation(operator: string, match: (candidate: Candidate, line: string) => boolean): (source: string) => string | null {
  return (source) => {
    const lines = source.split('\n');
    const candidate = listCandidates(source, { operators: [operator] }).find((c) => match(c, lines[c.line - 1] ?? ''));
    return candidate ? applyCandidate(source, candidate) : null;
  };
}

async function built(ctx: ScenarioContext, label: string, file: string, mutate: (source: string) => string | null): Promise<Scenario> {
  const result = await buildScenario(ctx, label, file, mutate);
  if (result.status !== 'built') throw new Error(`scenario not built: ${result.reason}`);
  return result.scenario;
}

const codeFiles = (patch: string | null): string[] => (patch ? parseUnifiedDiff(patch).touchedPaths : []);

describe('the procedural Solver through the real agent loop (Docker, pytest, coverage)', () => {
  let ctx: ScenarioContext;
  beforeAll(async () => {
    ctx = { template: await dockerTemplate(await exampleRepo()), provider: createProvider('docker') };
  });

  it('solves an operator bug: the graded patch makes every originally passing test pass (+1)', async () => {
    // round_amount's guard `places < 0` becomes `places <= 0`: rounding to whole units now raises.
    const scenario = await built(ctx, 'operator', 'pyledger/money.py',
      catalogueMutation('comparison-swap', (c, line) => line === '    if places < 0:' && c.replacement === '<='));
    expect(scenario.failing.length).toBeGreaterThan(0);

    const { episode, grade } = await solveAndGrade(ctx, scenario, 1);
    expect(episode.exit.exitStatus).toBe('submitted');
    // The fix touches the code only; the task's test changes stay out of it.
    expect(codeFiles(episode.patch)).toEqual(['pyledger/money.py']);
    expect(episode.patch).toContain('+    if places < 0:');
    expect(grade).toMatchObject({ reward: 1, applied: 'git-apply', failingTests: [] });
  }, 300_000);

  it('reports −1 honestly on a removal bug: it submits what it has, which does not rebuild the function', async () => {
    // group_digits loses its body to a default return: the catalogue cannot rebuild it.
    const scenario = await built(ctx, 'removal', 'pyledger/money.py',
      catalogueMutation('remove-function-body', (c) => c.description.includes('`group_digits`')));
    expect(scenario.failing.length).toBeGreaterThan(0);

    const { episode, grade } = await solveAndGrade(ctx, scenario, 1, { limits: { maxTurns: 40 } });
    expect(episode.exit.exitStatus).toBe('submitted');
    expect(episode.exit.submission).not.toBeNull();
    expect(grade.reward).toBe(-1);
    expect(grade.failingTests.length).toBeGreaterThan(0);
  }, 300_000);

  it('fails the valid-single-file fixture honestly: its unary-minus bug is outside the inverse catalogue', async () => {
    const file = (name: string): string => readFileSync(join(ARTIFACTS, 'valid-single-file', name), 'utf8');
    const artifact = {
      bugInject: file('bug_inject.diff'), testWeaken: file('test_weaken.diff'), testFiles: ['tests/test_money.py'],
      testScript: file('test_script.sh'), testParser: file('test_parser.py'),
    };
    const originalPassing = await passingOnOriginal(ctx, artifact);
    // The fixture's README: 90 tests of tests/test_money.py pass on O.
    expect(originalPassing).toHaveLength(90);
    const scenario: Scenario = { label: 'fixture', artifact, failing: [], originalPassing };
    const { episode, grade } = await solveAndGrade(ctx, scenario, 1, { limits: { maxTurns: 30 } });
    expect(episode.exit.exitStatus).toBe('submitted');
    expect(grade.reward).toBe(-1);
    expect(grade.failingTests).toContain('tests/test_money.py::TestAllocation::test_split_evenly_keeps_every_cent');
  }, 300_000);
});
