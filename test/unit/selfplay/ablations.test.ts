import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ABLATIONS } from '../../../src/selfplay/ablations/ablation-variants.js';
import { formatComparison } from '../../../src/selfplay/ablations/comparison-table.js';
import { runAblation, takeOption } from '../../../src/selfplay/ablations/run-ablation.js';
import type { StepMetrics } from '../../../src/selfplay/step-metrics.js';

function metrics(step: number, overrides: Partial<StepMetrics> = {}): StepMetrics {
  return {
    step, policyVersion: step - 1, startedAt: '2025-01-01T00:00:00.000Z', durationMs: 1000, episodes: 2, discarded: 0, discardReasons: {},
    valid: 1, invalidByCheck: { concealment: 1 }, validRate: 0.5, solverAttempts: 4, solved: 1, solveRate: { order1: 0.25, order2: null }, higherOrder: 0,
    rewards: { injector: [0.325, -1], solver: [1, -1, -1, -1] }, bugSize: { files: [1], lines: [3] }, strategies: { removal: 2 }, operators: {},
    turns: { injector: [3, 4], solver: [5, 5, 5, 5] }, tokens: { injector: [0, 0], solver: [0, 0, 0, 0] },
    stageMs: { prepare: 0, inject: 0, validate: 0, solve: 0, score: 0, emit: 0 }, samples: { written: 6, stale: 0, masked: 0, zeroAdvantageGroups: 0 }, trainer: null,
    ...overrides,
  };
}

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

describe('ablations', () => {
  it.each([
    [['--repo', 'x', '--out', 'runs', '--steps', '2'], '--out', 'runs', ['--repo', 'x', '--steps', '2']],
    [['--out=runs', '--steps', '2'], '--out', 'runs', ['--steps', '2']],
    [['--steps', '2'], '--out', undefined, ['--steps', '2']],
    [['--corpus', 'a', '--corpus', 'b'], '--corpus', 'b', []],
  ])('takeOption(%j, %s) = %s, leaving %j', (argv, name, value, rest) => {
    const args = [...argv];
    expect(takeOption(args, name)).toBe(value);
    expect(args).toEqual(rest);
  });

  it.each([
    ['selfplay', [['selfplay', ['--train-roles', 'both']]]],
    ['inject-only', [['inject-only', ['--train-roles', 'injector']]]],
    ['repair-only', [['repair-only', ['--train-roles', 'solver', '--corpus', '/r/selfplay', '--higher-order-cap', '0']]]],
    ['strategies', ['removal', 'history', 'direct', 'mixed'].map((s) => [`strategy-${s}`, ['--strategy', s]])],
  ])('%s runs its variants with their flags', (name, expected) => {
    expect(ABLATIONS[name]!({ root: '/r' }).map((v) => [v.name, v.flags])).toEqual(expected);
  });

  it('formats one table with a row per step and an `all` row per variant', () => {
    const text = formatComparison([
      { name: 'inject-only', metrics: [metrics(1)] },
      { name: 'selfplay', metrics: [metrics(2, { validRate: 1, valid: 2, invalidByCheck: {}, solveRate: { order1: 0.75, order2: 0.5 } }), metrics(1)] },
    ]);
    const rows = text.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^variant\s+step\s+valid rate\s+solve rate o1\s+solve rate o2\s+r_inject\s+r_solve\s+samples$/);
    expect(rows.slice(1).map((row) => row.split(/\s+/).slice(0, 5))).toEqual([
      ['inject-only', '1', '0.500', '0.250', '—'],
      ['inject-only', 'all', '0.500', '0.250', '—'],
      ['selfplay', '1', '0.500', '0.250', '—'],
      ['selfplay', '2', '1.000', '0.750', '0.500'],
      ['selfplay', 'all', '0.750', '0.500', '0.500'],
    ]);
  });

  it('runs each variant through the CLI into <out>/<variant> and prints the comparison of every variant there', async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-ablation-'));
    await mkdir(join(root, 'selfplay'));
    await writeFile(join(root, 'selfplay', 'metrics.jsonl'), `${JSON.stringify(metrics(1))}\n`);
    const calls: string[][] = [];
    const cli = async (args: string[]) => {
      calls.push(args);
      const out = args[args.indexOf('--out') + 1]!;
      await mkdir(out, { recursive: true });
      await writeFile(join(out, 'metrics.jsonl'), `${JSON.stringify(metrics(1, { rewards: { injector: [], solver: [1] } }))}\n`);
      return 0;
    };
    let printed = '';
    const stdout = { write: (text: string) => ((printed += text), true) } as unknown as NodeJS.WritableStream;
    expect(await runAblation('repair-only', ['--repo', 'pyledger', '--out', root, '--steps', '1'], cli, stdout)).toBe(0);
    expect(calls).toEqual([['selfplay', '--repo', 'pyledger', '--steps', '1', '--out', join(root, 'repair-only'), '--train-roles', 'solver', '--corpus', join(root, 'selfplay'), '--higher-order-cap', '0']]);
    expect(printed.split('\n').filter((row) => / all /.test(row)).map((row) => row.split(/\s+/)[0])).toEqual(['repair-only', 'selfplay']);
  });

  it.each([
    ['nope', ['--out', '/x'], /unknown ablation "nope"/],
    ['selfplay', ['--steps', '1'], /give --out <dir>/],
  ])('refuses %s %j', async (name, argv, message) => {
    await expect(runAblation(name, argv, async () => 0)).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(message) });
  });

  it('stops at the first variant that fails and returns its exit code', async () => {
    const calls: string[] = [];
    expect(await runAblation('strategies', ['--out', '/nonexistent/ablation'], async (args) => (calls.push(args.at(-1)!), 2))).toBe(2);
    expect(calls).toEqual(['removal']);
  });
});
