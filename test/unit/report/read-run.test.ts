import { cp, mkdir, mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRun } from '../../../src/report/read-run.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { RUNS } from './fixture-runs.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-read-run-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function copyRun(name: string): Promise<string> {
  const target = join(dir, name);
  await cp(join(RUNS, name), target, { recursive: true });
  return target;
}

describe('readRun', () => {
  it('reads every part of a run dir: config, steps, episodes (last line of an id wins), bugs newest first', async () => {
    const run = await readRun(join(RUNS, 'selfplay-trainer'));
    expect(run.name).toBe('selfplay-trainer');
    expect(run.config?.command).toBe('selfplay');
    expect(run.steps.map((step) => step.step)).toEqual([0, 1, 2, 3]);
    expect(run.episodes).toHaveLength(20);
    expect(run.notes).toEqual([]);
    expect(run.bugCount).toBe(5);
    expect(run.bugs.map((bug) => [bug.step, bug.order, bug.valid])).toEqual([
      [3, 2, true],
      [3, 1, false],
      [3, 1, true],
      [3, 1, true],
      [2, 1, true],
    ]);
    const [child, invalid, history] = run.bugs;
    expect(child).toMatchObject({ strategy: 'history', parentBugId: run.bugs[3]!.id, solves: 1, scored: 4, solveRate: 0.25, files: 2, lines: 4 });
    expect(invalid).toMatchObject({ failedCheck: 'parser', scored: 0, solveRate: null, operators: ['remove-function-body'] });
    // Operator records written as objects (the procedural Injector's) are read by their name.
    expect(history!.operators).toEqual(['revert-commit']);
    // None recorded: the diff's shape, as the step metrics count it.
    expect(child!.operators).toEqual(['replace-lines']);
    expect(child!.bugInject).toContain('diff --git a/pyledger/ledger.py');
    expect(child!.relDir).toBe(`bugs/${child!.id}`);
  });

  it('marks a run allowed to grade as the sandbox\'s only user (--allow-one-user-grading): its rewards may be forged', async () => {
    const target = await copyRun('selfplay-trainer');
    const config = JSON.parse(await readFile(join(target, 'run.json'), 'utf8')) as { config: Record<string, unknown> };
    config.config.allowOneUserGrading = true;
    await writeFile(join(target, 'run.json'), JSON.stringify(config));
    expect((await readRun(target)).notes).toEqual([expect.stringMatching(/^WARNING: .*--allow-one-user-grading.*forged/)]);
  });

  it('ignores a torn last line of metrics.jsonl and episodes.jsonl, with a note for each', async () => {
    const run = await readRun(join(RUNS, 'removal-torn'));
    expect(run.steps.map((step) => step.step)).toEqual([0, 1, 2]);
    expect(run.episodes.map((episode) => episode.step)).not.toContain(3);
    expect(run.notes.join('\n')).toMatch(/last line of metrics\.jsonl is incomplete[\s\S]*last line of episodes\.jsonl is incomplete/);
  });

  it('honours the bug limit but counts every finished bug dir; unfinished (no validation.json) and dot dirs are left out', async () => {
    const root = await copyRun('selfplay-trainer');
    await mkdir(join(root, 'bugs', 'bug-unfinished'));
    await mkdir(join(root, 'bugs', '.bug-staging'));
    const run = await readRun(root, { bugLimit: 2 });
    expect(run.bugs).toHaveLength(2);
    expect(run.bugCount).toBe(5);
  });

  it('a run dir with only metrics.jsonl is fine: the missing parts are notes', async () => {
    const root = join(dir, 'bare');
    await mkdir(root);
    await cp(join(RUNS, 'selfplay-trainer', 'metrics.jsonl'), join(root, 'metrics.jsonl'));
    const run = await readRun(root);
    expect(run.steps).toHaveLength(4);
    expect([run.config, run.episodes, run.bugs]).toEqual([null, [], []]);
    expect(run.notes).toEqual([expect.stringMatching(/run\.json is missing/)]);
  });

  it.each([
    ['metrics.jsonl', (root: string) => appendFile(join(root, 'metrics.jsonl'), '{"step": 9, "valid": "many"}\n'), /metrics\.jsonl:5: /],
    ['metrics.jsonl', (root: string) => appendFile(join(root, 'metrics.jsonl'), 'not json\n'), /metrics\.jsonl:5: not JSON/],
    ['episodes.jsonl', (root: string) => writeFile(join(root, 'episodes.jsonl'), '{"id": "x"}\n'), /episodes\.jsonl:1: /],
    ['run.json', (root: string) => writeFile(join(root, 'run.json'), '{'), /run\.json is not JSON/],
    ['validation.json', async (root: string) => writeFile(join(root, 'bugs', 'bug-0b58d8879193cf1e', 'validation.json'), '{"valid": "yes"}'), /bug-0b58d8879193cf1e\/validation\.json: /],
    ['metadata.json', async (root: string) => rm(join(root, 'bugs', 'bug-0b58d8879193cf1e', 'metadata.json')), /bug-0b58d8879193cf1e\/metadata\.json/],
    ['bug_inject.diff', async (root: string) => rm(join(root, 'bugs', 'bug-0b58d8879193cf1e', 'bug_inject.diff')), /cannot read .*bug-0b58d8879193cf1e\/bug_inject\.diff/],
  ])('a corrupt %s is an error naming the file', async (_file, corrupt, message) => {
    const root = await copyRun('selfplay-trainer');
    await corrupt(root);
    const error = await readRun(root).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('artifact-invalid-input');
    expect((error as EngineError).message).toMatch(message);
  });

  it.each([
    ['a missing dir', (root: string) => join(root, 'nope'), /does not exist/],
    ['a dir that is not a run dir', (root: string) => root, /is not a run dir: it has none of run\.json, metrics\.jsonl/],
  ])('%s is a usage error', async (_case, pick, message) => {
    const error = await readRun(pick(dir)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('usage');
    expect((error as EngineError).message).toMatch(message);
  });
});
