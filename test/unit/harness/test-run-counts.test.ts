import { describe, expect, it } from 'vitest';
import { injectorRunsOf, sumTestRuns, TestRunCounter, totalTestRuns } from '../../../src/harness/test-run-counts.js';
import { countingRuns, countRunsIn, type InjectorRuns } from '../../../src/policy/procedural/injector/count-runs.js';
import { runCommand } from '../../../src/policy/procedural/injector/injector-commands.js';
import type { Observation } from '../../../src/policy/procedural/observation.js';
import { bash, type Steps } from '../../../src/policy/procedural/program.js';

const observe = (text: string): Observation => ({ tool: 'bash', text, ok: true, exitCode: 0, timedOut: false, turnsLeft: 100, tokensLeft: 100_000, raw: text });

describe('test-run counts', () => {
  it('counts every run by kind and scope; a snapshot is a copy, later runs do not change it', () => {
    const counter = new TestRunCounter();
    counter.add('original', 'full');
    counter.add('original', 'full');
    counter.add('buggy', 'restricted');
    counter.add('audit', 'full');
    const first = counter.snapshot();
    counter.add('grading', 'full', 3);
    counter.addAll({ injector: { full: 4, restricted: 1 }, buggy: { full: 1, restricted: 0 } });
    expect(first).toEqual({ original: { full: 2, restricted: 0 }, buggy: { full: 0, restricted: 1 }, audit: { full: 1, restricted: 0 } });
    expect(counter.snapshot()).toEqual({
      original: { full: 2, restricted: 0 }, buggy: { full: 1, restricted: 1 }, audit: { full: 1, restricted: 0 }, grading: { full: 3, restricted: 0 }, injector: { full: 4, restricted: 1 },
    });
    expect(totalTestRuns(counter.snapshot())).toEqual({ runs: 13, full: 11 });
  });

  it('sums the episodes of a step, records written before the counts included', () => {
    const sum = sumTestRuns([{ original: { full: 2, restricted: 0 } }, undefined, { original: { full: 0, restricted: 1 }, order: { full: 0, restricted: 1 } }]);
    expect(sum).toEqual({ original: { full: 2, restricted: 1 }, order: { full: 0, restricted: 1 } });
    expect(totalTestRuns(undefined)).toEqual({ runs: 0, full: 0 });
  });

  it("reads the Injector's runs from its metadata.json, and nothing from a metadata without them", () => {
    expect(injectorRunsOf({ policy: 'procedural', testRuns: { full: 7, restricted: 1 } })).toEqual({ full: 7, restricted: 1 });
    expect(injectorRunsOf({ policy: 'procedural' })).toBeNull();
    expect(injectorRunsOf({ testRuns: { full: -1, restricted: 0 } })).toBeNull();
    expect(injectorRunsOf(undefined)).toBeNull();
  });
});

describe("the procedural Injector's run count", () => {
  it('every run command marks its scope: the whole suite, or the chosen files', () => {
    const runs: InjectorRuns = { full: 0, restricted: 0 };
    const suite = { kind: 'pytest' as const };
    // The marker is echoed by the command itself: what the run printed is what is counted.
    const full = runCommand(suite, 'o', { timeoutS: 10 });
    const some = runCommand(suite, 'w', { timeoutS: 10, files: ['tests/test_a.py'] });
    expect(full).toContain('echo "@@suite full"');
    expect(some).toContain('echo "@@suite restricted"');
    countRunsIn('@@exit 0\n@@suite full\n@@ms 10\n@@run passed=1 failed=0\nnot @@suite full\n@@exit 1\n@@suite restricted\n', runs);
    expect(runs).toEqual({ full: 1, restricted: 1 });
  });

  it('counts the runs a delegated program makes, passes its observations on unchanged, and returns its value', async () => {
    const seen: string[] = [];
    async function* program(): Steps<string> {
      seen.push((yield bash('run the suite', 'clean run')).text);
      seen.push((yield bash('git diff', 'not a run')).text);
      seen.push((yield bash('run two files', 'two runs')).text);
      return 'done';
    }
    const runs: InjectorRuns = { full: 0, restricted: 0 };
    const steps = countingRuns(program(), runs);
    await steps.next();
    await steps.next(observe('@@exit 0\n@@suite full'));
    await steps.next(observe('diff --git a/x b/x'));
    const done = await steps.next(observe('@@exit 1\n@@suite restricted\n@@exit 0\n@@suite full'));
    expect(done).toEqual({ done: true, value: 'done' });
    expect(seen).toEqual(['@@exit 0\n@@suite full', 'diff --git a/x b/x', '@@exit 1\n@@suite restricted\n@@exit 0\n@@suite full']);
    expect(runs).toEqual({ full: 2, restricted: 1 });
  });
});
