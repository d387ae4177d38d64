import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseObservation } from '../../../../src/policy/procedural/observation.js';
import type { ProgramStep } from '../../../../src/policy/procedural/program.js';
import { FILE_BEGIN, FILE_END, FULL_RUN_MARKER, PATCH_PATH } from '../../../../src/policy/procedural/solver/solver-commands.js';
import type { SolverLimits } from '../../../../src/policy/procedural/solver/ask.js';
import { REPORT_SCRIPT } from '../../../../src/policy/procedural/solver/report-script.js';
import { createSolverProgram } from '../../../../src/policy/procedural/solver/solver-program.js';
import { bashArgsSchema } from '../../../../src/tools/bash-tool.js';
import { createArgsSchema } from '../../../../src/tools/create-tool.js';
import { editArgsSchema } from '../../../../src/tools/edit-tool.js';
import { applyEdit } from '../../../../src/tools/line-match.js';
import { solverSubmitArgsSchema } from '../../../../src/tools/submit-tool.js';

/**
 * The Solver program against a scripted repository: the coverage fixture's sample (two bugs in
 * shop/pricing.py) stands in for the sandbox. Edits really change the simulated file; a test run
 * reports which tests fail for the file as it stands (the fixture's report script output, with the
 * tests a fixed bug no longer breaks taken out); `cp keep/… …` puts the kept content back.
 */
const FIXTURES = join(import.meta.dirname, '../../../fixtures/coverage');
const FILE = 'shop/pricing.py';
const BUGGY = readFileSync(join(FIXTURES, 'sample', FILE), 'utf8');
const FIXTURE_REPORT = execFileSync('python3', ['-c', REPORT_SCRIPT, '--log', 'pytest.log', '--cov', 'coverage.json', '--exit', '1'], { cwd: FIXTURES, encoding: 'utf8' });
const id = (name: string): string => `tests/test_pricing.py::${name}`;
const BUGS = [
  { fixed: '    if quantity >= 100:', tests: [id('TestDiscount::test_hundred_items_get_twenty_percent'), id('test_total[100-400.0]')] },
  { fixed: '    return sum(prices) / len(prices) if prices else 0.0', tests: [id('TestAverage::test_average_of_two'), id('TestAverage::test_empty_average_is_zero')] },
];
const TASK = [
  'diff --git a/tests/test_pricing.py b/tests/test_pricing.py',
  '--- a/tests/test_pricing.py',
  '+++ b/tests/test_pricing.py',
  '@@ -1,2 +1,5 @@',
  ' import pytest',
  ' ',
  '+',
  '+def test_average_of_two():',
  '+    assert average([1.0, 3.0]) == 2.0',
  '',
].join('\n');
const PROMPT = `I'm improving the test suite with these changes, but the code fails them.\n\n\`\`\`diff\n${TASK}\`\`\`\n`;

interface Sim {
  /** A failing test no edit of the file fixes (a bug outside the catalogue's reach). */
  unfixable?: boolean;
  file: string;
  kept: string;
  steps: ProgramStep[];
  turnsLeft: number;
}

function failingNow(sim: Sim): string[] {
  const unfixable = sim.unfixable ? [id('test_unfixable')] : [];
  return [...BUGS.filter((bug) => !sim.file.split('\n').includes(bug.fixed)).flatMap((bug) => bug.tests), ...unfixable].sort();
}

function runOutput(sim: Sim, command: string): string {
  const failing = failingNow(sim);
  const passed = 10 - failing.length;
  // A coverage run shows the fixture's spectrum and frames; a plain run only outcomes.
  const detail = command.includes('coverage run') ? FIXTURE_REPORT.split('\n').filter((l) => l.startsWith('#frame') || l.startsWith('#import') || !l.startsWith('#')).join('\n') : '';
  const header = command.includes('coverage run') ? FIXTURE_REPORT.split('\n').find((l) => l.startsWith('#spectrum'))! : '';
  const lines = [`#run exit=${failing.length ? 1 : 0} seconds=1 summary=yes passed=${passed} failed=${failing.length}`, ...failing.map((t) => `#failed ${t}`)];
  return [...lines, ...(header ? [header, detail] : [])].join('\n');
}

/** What the simulated sandbox prints for one step. */
function respond(sim: Sim, step: ProgramStep): { tool: string; content: string } {
  switch (step.tool) {
    case 'bash': {
      const { command } = bashArgsSchema.parse(step.args);
      if (command.includes('coverage --version')) return { tool: 'bash', content: '#coverage yes' };
      if (command.includes('git apply')) return { tool: 'bash', content: '#applied git-apply' };
      if (command.includes(FILE_BEGIN)) return { tool: 'bash', content: `${FILE_BEGIN}\n${sim.file.replace(/\n$/, '')}\n${FILE_END}\n#eof` };
      if (command.includes('git diff --no-color')) {
        sim.kept = sim.file;
        return { tool: 'bash', content: `#patch-bytes ${sim.file === BUGGY ? 0 : 321}` };
      }
      if (command.includes(FULL_RUN_MARKER)) {
        // An attempt: the failing tests alone, then the whole suite when fewer of them fail.
        const below = Number(/--promising-below (\d+)/.exec(command)?.[1] ?? Infinity);
        const promising = failingNow(sim).length < below;
        const out = [runOutput(sim, ''), `#promising ${promising ? 'yes' : 'no'}`, ...(promising ? [FULL_RUN_MARKER, runOutput(sim, '')] : [])].join('\n');
        if (command.includes(`keep/${FILE}`)) sim.file = sim.kept;
        return { tool: 'bash', content: out };
      }
      if (command.includes('pytest')) {
        const out = runOutput(sim, command);
        if (command.includes(`keep/${FILE}`)) sim.file = sim.kept;
        return { tool: 'bash', content: out };
      }
      return { tool: 'bash', content: '(no output)' };
    }
    case 'edit': {
      const { path, search, replace } = editArgsSchema.parse(step.args);
      expect(path).toBe(FILE);
      const outcome = applyEdit(sim.file, search, replace);
      if (outcome.status !== 'edited') return { tool: 'edit', content: `No match for \`search\` (${outcome.status})` };
      sim.file = outcome.text;
      return { tool: 'edit', content: `Edited /repo/${FILE}: replaced 1 line(s) with 1 at line ${outcome.start}.` };
    }
    case 'create':
      createArgsSchema.parse(step.args);
      return { tool: 'create', content: `Created ${String(step.args.path)} (1 line(s)).` };
    case 'submit':
      expect(solverSubmitArgsSchema.parse(step.args)).toEqual({ patch: PATCH_PATH });
      return { tool: 'submit', content: 'Submission recorded.' };
  }
}

/** Drive the program to its end like the agent loop: footer included, turns counted down. */
async function drive(options: { prompt?: string; maxTurns?: number; seed?: number; unfixable?: boolean; limits?: Partial<SolverLimits> } = {}): Promise<{ sim: Sim; summary: string }> {
  const sim: Sim = { file: BUGGY, kept: BUGGY, steps: [], turnsLeft: options.maxTurns ?? 128, unfixable: options.unfixable };
  const program = createSolverProgram({ seed: options.seed ?? 1, userPrompt: options.prompt ?? PROMPT, limits: options.limits });
  let next = await program.next(undefined as never);
  while (!next.done) {
    sim.steps.push(next.value);
    sim.turnsLeft--;
    if (sim.turnsLeft < 1) throw new Error('the program ran past its turn limit without ending');
    const { tool, content } = respond(sim, next.value);
    const observation = parseObservation({ role: 'tool', name: tool, toolCallId: 'c', content: `${content}\n\n[${sim.turnsLeft} turns and ~100000 tokens left]` });
    next = await program.next(observation);
  }
  return { sim, summary: next.value };
}

describe('the Solver program (scripted sandbox)', () => {
  it('fixes both bugs one kept edit at a time, submitting after each', async () => {
    const { sim, summary } = await drive();
    expect(failingNow(sim)).toEqual([]);
    expect(sim.file.split('\n')).toEqual(expect.arrayContaining(BUGS.map((bug) => bug.fixed)));
    expect(sim.steps.filter((s) => s.tool === 'submit')).toHaveLength(2);
    expect(sim.steps.at(-1)!.tool).toBe('submit');
    expect(summary).toMatch(/Kept 2: /);
    expect(summary).toMatch(/every test in the whole suite passes/);
  });

  it('gives up once many edits in a row did not help, keeping what it fixed', async () => {
    const { sim, summary } = await drive({ unfixable: true, limits: { maxFruitless: 3 } });
    expect(failingNow(sim)).toContain(id('test_unfixable'));
    expect(failingNow(sim).length).toBeLessThan(5);
    // After the last kept edit (and its submit), exactly the cap of fruitless edits is tried.
    const lastSubmit = sim.steps.map((s) => s.tool).lastIndexOf('submit');
    expect(sim.steps.slice(lastSubmit).filter((s) => s.tool === 'edit')).toHaveLength(3);
    expect(summary).toMatch(/gave up after 3 candidate edits in a row did not help/);
    expect(summary).toMatch(/Kept 1: /);
  });

  it('stops when no line with evidence has an untried edit left, long before its turns run out', async () => {
    const { sim, summary } = await drive({ unfixable: true });
    expect(failingNow(sim)).toEqual([id('test_unfixable')]);
    expect(sim.turnsLeft).toBeGreaterThan(20);
    expect(summary).not.toMatch(/gave up/);
    expect(summary).toMatch(/Kept 2: /);
  });

  it('is deterministic for a seed', async () => {
    const tools = async (seed: number) => (await drive({ seed })).sim.steps.map((s) => JSON.stringify(s.args));
    expect(await tools(5)).toEqual(await tools(5));
  });

  it('stays within a tight turn budget and still submits what it kept', async () => {
    const { sim, summary } = await drive({ maxTurns: 16 });
    expect(sim.steps.length).toBeLessThan(16);
    expect(sim.steps.at(-1)!.tool).toBe('submit');
    expect(summary).toMatch(/Submitted/);
  });

  it('submits an empty diff, and says so, when the task holds no diff and nothing fails', async () => {
    const sim: Sim = { file: BUGS.reduce((text, bug, i) => text.replace(i === 0 ? '    if quantity > 100:' : 'if not prices', i === 0 ? bug.fixed : 'if prices'), BUGGY), kept: '', steps: [], turnsLeft: 128 };
    sim.kept = sim.file;
    const program = createSolverProgram({ seed: 1, userPrompt: 'Please fix the bug.' });
    let next = await program.next(undefined as never);
    while (!next.done) {
      sim.steps.push(next.value);
      const { tool, content } = respond(sim, next.value);
      next = await program.next(parseObservation({ role: 'tool', name: tool, toolCallId: 'c', content }));
    }
    expect(sim.steps.map((s) => s.tool)).toEqual(['bash', 'create', 'bash', 'bash', 'submit']);
    expect(next.value).toMatch(/no diff I could read/);
    expect(next.value).toMatch(/nothing to repair/);
    expect(next.value).toMatch(/an empty diff/);
  });
});
