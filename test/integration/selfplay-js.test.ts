import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { parseUnifiedDiff } from '../../src/code/unified-diff.js';
import { episodeRecordSchema, type EpisodeRecord } from '../../src/corpus/episode-record.js';
import { readJsTestFiles } from '../../src/harness/js-test-files.js';
import { TEST_MAP } from '../../src/policy/procedural/injector/injector-commands.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { episodeLines } from './selfplay-helpers.js';

const EPISODES = 3;

interface StoredCheck {
  name: string;
  status: string;
}

/**
 * `ssr selfplay --repo jskit --policy procedural`: the procedural Injector on the JavaScript
 * example (node:test, Node 18 in the sandbox) reads the runner its prompt names, breaks .mjs code
 * with the registry's JS operators, hides the failures with tree-sitter edits of the test files,
 * and the real validator keeps its bugs. One run, shared by every assertion.
 */
describe('ssr selfplay on the jskit example with the procedural policy (real Docker, real Node)', () => {
  let root: string;
  let out: string;
  let run: CliRun;
  let records: EpisodeRecord[];
  const readJson = <T>(...parts: string[]): T => JSON.parse(readFileSync(join(out, ...parts), 'utf8')) as T;
  const bugFile = (record: EpisodeRecord, name: string): string => readFileSync(join(out, 'bugs', record.bugId!, name), 'utf8');

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-js-'));
    out = join(root, 'run');
    run = await runCli([
      'selfplay', '--repo', 'jskit', '--steps', '1', '--policy', 'procedural', '--seed', '0',
      '--episodes-per-step', String(EPISODES), '--attempts', '1', '--strategy', 'direct', '--solver-max-turns', '16', '--out', out, '--json',
    ]);
    if (run.code !== 0) throw new Error(`ssr selfplay exited ${run.code}:\n${run.stderr.slice(-3000)}`);
    records = episodeLines(out).map((line) => episodeRecordSchema.parse(line));
    // A cold machine builds the Node rootfs first (debootstrap, Debian's nodejs and npm: many minutes).
  }, 2_400_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('passes the golden gate on the node:test suite and records every episode', () => {
    const gates = readJson<Array<Record<string, unknown>>>('golden-gate.json');
    expect(gates).toEqual([expect.objectContaining({ status: 'passed', repo: 'jskit', quarantined: [] })]);
    expect(records.filter((r) => r.order === 1)).toHaveLength(EPISODES);
    expect(records.every((r) => r.status === 'completed')).toBe(true);
  });

  it('gives at least one valid bug, every check of its validation passed', () => {
    const valid = records.filter((r) => r.order === 1 && r.valid === true);
    expect(valid.length, JSON.stringify(records.map((r) => [r.id, r.valid, r.failedCheck, r.injectorExit]))).toBeGreaterThanOrEqual(1);
    for (const record of valid) {
      const validation = readJson<{ valid: boolean; failedCheck: string | null; checks: StoredCheck[]; failToPass: string[] }>('bugs', record.bugId!, 'validation.json');
      expect(validation.valid).toBe(true);
      expect(validation.failedCheck).toBeNull();
      expect(validation.checks.length).toBeGreaterThanOrEqual(7);
      expect(validation.checks.filter((c) => c.status !== 'pass')).toEqual([]);
      // F: node:test ids of the oracle files, `file > describe > test`.
      expect(validation.failToPass.length).toBeGreaterThanOrEqual(1);
      for (const id of validation.failToPass) expect(id).toMatch(/^test\/\w+\.test\.mjs > .+ > .+$/);
      // The Injector's one full run is its clean run (none when it restored the run's earlier
      // episode's clean and traced runs, see DiscoveryMemo: then it traced nothing either): each
      // candidate ran only the test files whose Node process executed its lines (V8 coverage), and
      // the one-file bug's B is its candidate's run.
      const restored = record.injectPhasesMs?.trace === undefined;
      expect(record.testRuns?.injector?.full ?? 0, record.id).toBe(restored ? 0 : 1);
    }
  });

  it("each valid bug breaks .mjs code only, hides it in its oracle test files only, and runs them with ssr's node:test script and TAP parser", () => {
    const node = readJsTestFiles('node-test');
    for (const record of records.filter((r) => r.valid === true)) {
      const oracle = bugFile(record, 'test_files.txt').split('\n').filter(Boolean);
      expect(oracle.length).toBeGreaterThanOrEqual(1);
      for (const file of oracle) expect(file).toMatch(/^test\/\w+\.test\.mjs$/);
      const code = parseUnifiedDiff(bugFile(record, 'bug_inject.diff')).touchedPaths;
      expect(code.length).toBeGreaterThanOrEqual(1);
      for (const file of code) expect(file).toMatch(/^src\/\w+\.mjs$/);
      const weakened = parseUnifiedDiff(bugFile(record, 'test_weaken.diff')).touchedPaths;
      expect(weakened.length).toBeGreaterThanOrEqual(1);
      for (const file of weakened) expect(oracle).toContain(file);
      // Weakening deletes (whole tests or single assertions), never comments anything out.
      const added = bugFile(record, 'test_weaken.diff').split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
      expect(added.filter((l) => /^\+\s*\/\//.test(l))).toEqual([]);
      const script = bugFile(record, 'test_script.sh');
      // The runner's own command line (nonce reporter, frozen assertions) from ssr's node:test script.
      const runLine = node.testScript.split('\n').find((line) => /^\s*node .*--test\b/.test(line))!.trim();
      expect(script).toContain(runLine);
      for (const file of oracle) expect(script).toContain(file);
      expect(script).not.toMatch(/pytest|find \./);
      expect(bugFile(record, 'test_parser.py')).toBe(node.testParser);
    }
  });

  it("reads the V8 trace from the clean run's coverage instead of running the suite a second time", async () => {
    const commands: string[] = [];
    for (const record of records.filter((r) => r.order === 1)) {
      const trajectory = await readTrajectory(join(out, 'trajectories', `${record.id}-inject.jsonl`));
      for (const step of trajectory.steps) if (step.toolCall?.name === 'bash') commands.push(String((step.toolCall.arguments as { command?: unknown }).command));
    }
    const traces = commands.filter((command) => command.includes(`--map ${TEST_MAP}`));
    expect(traces.length).toBeGreaterThanOrEqual(1);
    const collecting = 'NODE_V8_COVERAGE=/';
    for (const trace of traces) expect(trace).not.toContain(collecting);
    // Each trace's coverage came from one clean run (an episode that restored the memo ran neither).
    expect(commands.filter((command) => command.includes('@@suite') && command.includes(collecting)).length).toBe(traces.length);
  });

  it('told both roles the language and the runner', async () => {
    const injector = records.find((r) => r.order === 1)!;
    const injected = await readTrajectory(join(out, 'trajectories', `${injector.id}-inject.jsonl`));
    expect(injected.header.userPrompt).toContain('## The repository: JavaScript or TypeScript, tested with node:test');
    expect(injected.header.userPrompt).not.toContain('python3 -m pytest');
    // The Injector's closing summary names the JS operators it used, in .mjs code files.
    for (const record of records.filter((r) => r.valid === true)) {
      const trajectory = await readTrajectory(join(out, 'trajectories', `${record.id}-inject.jsonl`));
      const summary = trajectory.steps.filter((step) => step.toolCall === undefined).at(-1)?.assistant.content ?? '';
      expect(summary).toMatch(/^Injected a \w+ bug after \d+ tried change\(s\): js-[\w-]+ in src\/\w+\.mjs:\d+/);
    }
    const solved = records.find((r) => r.solverAttempts > 0);
    if (!solved) return;
    const attempt = await readTrajectory(join(out, 'trajectories', `${solved.id}-a1.jsonl`));
    expect(attempt.header.userPrompt).toContain('its tests run with node:test: `node --test <file>` runs one test file');
    expect(attempt.header.userPrompt).not.toContain('ssr-test-file');
  });
});
