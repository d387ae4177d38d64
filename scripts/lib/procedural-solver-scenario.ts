import type { AgentLimits } from '../../src/agent/agent-limits.js';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { extractEntities } from '../../src/code/python/entities.js';
import { parsePython } from '../../src/code/python/parse-python.js';
import { readDefaultTestFiles } from '../../src/harness/default-files.js';
import { runTests } from '../../src/harness/run-tests.js';
import { ProceduralPolicy } from '../../src/policy/procedural/procedural-policy.js';
import { gradeSolution, type SolverGrade } from '../../src/roles/grade-solution.js';
import { runSolverEpisode, type SolverEpisode } from '../../src/roles/solver-episode.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { execMustSucceed } from '../../src/workspace/exec-checked.js';
import { withSandbox } from './sandboxes.js';

/**
 * Solver scenarios on pyledger: a bug made on the host (a catalogue mutation, a hand-written
 * removal), its failing tests found by running the suite, those tests deleted from their files
 * as a weakening Injector would, and the five-file artifact built from the two diffs. The Solver
 * then plays a real episode (`runSolverEpisode`) and is graded as method §4 says (`gradeSolution`).
 */
export interface ScenarioContext {
  template: SandboxTemplate;
  provider: SandboxProvider;
}

export interface Scenario {
  label: string;
  artifact: BugArtifact;
  /** Tests that pass on O and fail with the bug (the ones the weakening deleted). */
  failing: string[];
  /** Tests of the oracle files that pass on O. */
  originalPassing: string[];
}

export type ScenarioResult = { status: 'built'; scenario: Scenario } | { status: 'rejected'; reason: string };

const TEST_TIMEOUT_MS = 90_000;

async function suiteStatuses(sandbox: Sandbox): Promise<Record<string, 'passed' | 'failed'>> {
  const report = await runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: TEST_TIMEOUT_MS });
  return report.statuses;
}

/** Source lines of the test functions named by `ids` deleted (methods by `Class::name`). */
function deleteTests(source: string, names: string[]): string | null {
  const entities = extractEntities(parsePython(source));
  const lines = source.split('\n');
  const drop = new Set<number>();
  for (const name of names) {
    const entity = entities.find((e) => e.qualifiedName === name);
    if (!entity) return null;
    for (let line = entity.startLine; line <= entity.endLine; line++) drop.add(line);
    // Take the blank line after it too, so the file keeps its spacing.
    if (lines[entity.endLine]?.trim() === '') drop.add(entity.endLine + 1);
  }
  // A class left with no code goes as a whole (an empty class body does not parse).
  for (const entity of entities.filter((e) => e.kind === 'class')) {
    const rest = lines.slice(entity.startLine, entity.endLine).filter((line, i) => !drop.has(entity.startLine + 1 + i) && line.trim() !== '' && !line.trim().startsWith('#'));
    if (rest.length > 0) continue;
    for (let line = entity.startLine; line <= entity.endLine; line++) drop.add(line);
    if (lines[entity.endLine]?.trim() === '') drop.add(entity.endLine + 1);
  }
  return lines.filter((_, index) => !drop.has(index + 1)).join('\n');
}

/** Build the artifact of `file` mutated to `mutated` (O has no failing test). */
export async function buildScenario(ctx: ScenarioContext, label: string, file: string, mutate: (source: string) => string | null): Promise<ScenarioResult> {
  return withSandbox(ctx.template, async (sandbox) => {
    const original = await suiteStatuses(sandbox);
    const mutated = mutate((await sandbox.readFile(file)).toString('utf8'));
    if (mutated === null) return { status: 'rejected', reason: 'no mutation' };
    await sandbox.writeFile(file, mutated);
    const bugInject = (await execMustSucceed(sandbox, 'diffing the bug', `git diff -- ${file}`)).output;
    const buggy = await suiteStatuses(sandbox);
    const failing = Object.keys(original).filter((id) => original[id] === 'passed' && buggy[id] !== 'passed').sort();
    if (failing.length === 0) return { status: 'rejected', reason: 'no test fails' };
    if (failing.some((id) => !id.includes('::'))) return { status: 'rejected', reason: 'a test file no longer collects' };
    const byFile = new Map<string, string[]>();
    for (const id of failing) {
      const [path, ...rest] = id.split('::');
      const name = rest.join('.').replace(/\[.*$/, '');
      byFile.set(path!, [...new Set([...(byFile.get(path!) ?? []), name])]);
    }
    for (const [path, names] of byFile) {
      const weakened = deleteTests((await sandbox.readFile(path)).toString('utf8'), names);
      if (weakened === null) return { status: 'rejected', reason: `cannot find ${names.join(', ')} in ${path}` };
      await sandbox.writeFile(path, weakened);
    }
    const testFiles = [...byFile.keys()].sort();
    const compiles = await sandbox.exec(`python3 -m py_compile ${testFiles.join(' ')}`);
    if (compiles.exitCode !== 0) return { status: 'rejected', reason: `the weakened tests do not compile: ${compiles.output.slice(0, 200)}` };
    const testWeaken = (await execMustSucceed(sandbox, 'diffing the weakening', `git diff -- ${testFiles.join(' ')}`)).output;
    const artifact: BugArtifact = {
      bugInject,
      testWeaken,
      testFiles,
      testScript: `#!/usr/bin/env bash\ncd /repo && python3 -m pytest -rA -p no:cacheprovider ${testFiles.join(' ')}\n`,
      testParser: readDefaultTestFiles().testParser,
    };
    const originalPassing = Object.keys(original).filter((id) => original[id] === 'passed' && testFiles.some((f) => id.startsWith(`${f}::`))).sort();
    return { status: 'built', scenario: { label, artifact, failing, originalPassing } };
  });
}

/** Tests the artifact's own script and parser see passing on O (a fresh sandbox). */
export async function passingOnOriginal(ctx: ScenarioContext, artifact: BugArtifact): Promise<string[]> {
  return withSandbox(ctx.template, async (sandbox) => {
    const report = await runTests(sandbox, { testScript: artifact.testScript, testParser: artifact.testParser, timeoutMs: TEST_TIMEOUT_MS });
    return Object.keys(report.statuses).filter((id) => report.statuses[id] === 'passed').sort();
  });
}

/** One procedural Solver episode on the scenario, graded on a fresh sandbox. */
export async function solveAndGrade(
  ctx: ScenarioContext,
  scenario: Scenario,
  seed: number,
  options: { trajectoryPath?: string; limits?: Partial<AgentLimits> } = {},
): Promise<{ episode: SolverEpisode; grade: SolverGrade }> {
  const episode = await runSolverEpisode({
    policy: new ProceduralPolicy({ seed }),
    template: ctx.template,
    provider: ctx.provider,
    artifact: scenario.artifact,
    episodeId: `procedural-solver-${scenario.label}-${seed}`,
    seed,
    ...options,
  });
  const grade = await gradeSolution({
    provider: ctx.provider,
    template: ctx.template,
    artifact: scenario.artifact,
    patch: episode.patch,
    originalPassing: scenario.originalPassing,
    testTimeoutMs: TEST_TIMEOUT_MS,
  });
  return { episode, grade };
}
