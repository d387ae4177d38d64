import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { parseSource } from '../../src/code/parse-source.js';
import { parseUnifiedDiff } from '../../src/code/unified-diff.js';
import { loadReposFile } from '../../src/config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { readJsTestFiles } from '../../src/harness/js-test-files.js';
import { runTests } from '../../src/harness/run-tests.js';
import { applyCandidate, listCandidates } from '../../src/mutation/mutate.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import { execMustSucceed } from '../../src/workspace/exec-checked.js';
import { dockerTemplate, ROOT_REPOS_YAML, withSandbox } from '../helpers/sandboxes.js';
import { solveAndGrade, type Scenario, type ScenarioContext } from '../../scripts/lib/procedural-solver-scenario.js';

const CODE = 'src/collections.mjs';
const TESTS = 'test/collections.test.mjs';

/** The source with the `it('<name>', …)` statements of `names` deleted (whole lines), as a weakening Injector would. */
function deleteJsTests(source: string, names: readonly string[]): string {
  const tree = parseSource(source, 'javascript');
  const drop = new Set<number>();
  for (const call of tree.rootNode.descendantsOfType('call_expression')) {
    const callee = call.childForFieldName('function')?.text;
    const title = call.childForFieldName('arguments')?.namedChildren[0];
    if ((callee !== 'it' && callee !== 'test') || title?.type !== 'string' || !names.includes(title.text.slice(1, -1))) continue;
    const statement = call.parent!;
    for (let row = statement.startPosition.row; row <= statement.endPosition.row; row++) drop.add(row);
  }
  if (drop.size === 0) throw new Error(`no test named ${names.join(', ')}`);
  return source.split('\n').filter((_, row) => !drop.has(row)).join('\n');
}

/**
 * A hand-made JS artifact on jskit: a catalogue mutation of one module (js-bound-off-by-one on
 * lastN's slice start), the collection tests it breaks found by running the suite, those tests
 * deleted from their file, and the five files built from the two diffs with the node:test parser.
 */
async function lastNScenario(template: SandboxTemplate): Promise<Scenario> {
  return withSandbox(template, async (sandbox) => {
    const statuses = async () => (await runTests(sandbox, { ...readJsTestFiles('node-test'), timeoutMs: 90_000 })).statuses;
    const original = await statuses();
    const source = (await sandbox.readFile(CODE)).toString('utf8');
    const lines = source.split('\n');
    const mutation = listCandidates(source, { operators: ['js-bound-off-by-one'], language: 'javascript' })
      .find((c) => lines[c.line - 1]!.includes('items.slice(Math.max(0, items.length - count))') && c.replacement.endsWith(' + 1'));
    if (!mutation) throw new Error('jskit changed: no slice bound to shift in lastN');
    await sandbox.writeFile(CODE, applyCandidate(source, mutation));
    const bugInject = (await execMustSucceed(sandbox, 'diffing the bug', `git diff -- ${CODE}`)).output;
    const buggy = await statuses();
    const failing = Object.keys(original).filter((id) => original[id] === 'passed' && buggy[id] !== 'passed').sort();
    const names = failing.map((id) => id.split(' > ').at(-1)!);
    const tests = (await sandbox.readFile(TESTS)).toString('utf8');
    await sandbox.writeFile(TESTS, deleteJsTests(tests, names));
    const testWeaken = (await execMustSucceed(sandbox, 'diffing the weakening', `git diff -- ${TESTS}`)).output;
    const artifact: BugArtifact = {
      bugInject,
      testWeaken,
      testFiles: [TESTS],
      testScript: `#!/usr/bin/env bash\ncd /repo || exit 2\necho "ssr-test-file: ${TESTS}"\nnode --test --test-reporter=tap ${TESTS}\n`,
      testParser: readJsTestFiles('node-test').testParser,
    };
    const originalPassing = Object.keys(original).filter((id) => original[id] === 'passed' && id.startsWith(`${TESTS} > `)).sort();
    return { label: 'jskit-lastn', artifact, failing, originalPassing };
  });
}

// The procedural Solver on a JavaScript repo (issue 16): it tells node:test from jskit's
// package.json, runs the task's test file with it, localises with V8 coverage of single tests,
// and repairs with the JS inverse catalogue; graded as method §4 says.
describe('the procedural Solver on jskit (Docker, Node 18, node:test)', () => {
  let repo: ResolvedRepo;
  let ctx: ScenarioContext;
  beforeAll(async () => {
    repo = await resolveRepo('jskit', await loadReposFile(ROOT_REPOS_YAML));
    // A cold machine debootstraps the Node rootfs here (minutes).
    ctx = { template: await dockerTemplate(repo), provider: createProvider('docker') };
  }, 1_500_000);

  it('repairs a hand-made off-by-one in lastN: the graded patch makes every originally passing test pass (+1)', async () => {
    const scenario = await lastNScenario(ctx.template);
    expect(scenario.failing).toEqual([`${TESTS} > lastN > takes everything when there are fewer`, `${TESTS} > lastN > takes the last items`]);
    expect(scenario.originalPassing.length).toBeGreaterThan(5);

    // SSR_TRAJ=<file> keeps the episode's trajectory, to see where a slow or failed run spent its turns.
    const { episode, grade } = await solveAndGrade(ctx, scenario, 1, process.env.SSR_TRAJ ? { trajectoryPath: process.env.SSR_TRAJ } : {});
    expect(episode.exit.exitStatus).toBe('submitted');
    expect(episode.patch ? parseUnifiedDiff(episode.patch).touchedPaths : []).toEqual([CODE]);
    // The mutated line goes (an inverse may restore it to the letter, or `+ 0` does the same).
    expect(episode.patch).toContain('-  return items.slice(Math.max(0, items.length - count) + 1);');
    expect(grade).toMatchObject({ reward: 1, applied: 'git-apply', failingTests: [] });
    // Minutes on a quiet machine; a loaded one (two cores shared by many jobs) stretches every run many times.
  }, 1_800_000);
});
