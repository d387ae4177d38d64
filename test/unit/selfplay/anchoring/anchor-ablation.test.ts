import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorLine, anchorSection } from '../../../../src/report/anchor-section.js';
import { runAnchoringAblation } from '../../../../src/selfplay/ablations/anchoring-ablation.js';
import type { StepMetrics } from '../../../../src/selfplay/step-metrics.js';

function metrics(step: number, order1: number | null, anchor?: StepMetrics['anchor']): StepMetrics {
  return {
    step, policyVersion: 0, startedAt: '2025-01-01T00:00:00.000Z', durationMs: 1000, episodes: 2, discarded: 0, discardReasons: {},
    valid: 1, invalidByCheck: {}, validRate: 1, solverAttempts: 4, solved: 1, solveRate: { order1, order2: null }, higherOrder: 0,
    rewards: { injector: [0.3], solver: [1, -1, -1, -1] }, bugSize: { files: [1], lines: [3] }, strategies: { removal: 1 }, operators: {},
    turns: { injector: [3], solver: [5, 5, 5, 5] }, tokens: { injector: [0], solver: [0, 0, 0, 0] },
    stageMs: { prepare: 0, inject: 0, validate: 0, solve: 0, score: 0, emit: 0 }, samples: { written: 5, stale: 0, masked: 0, zeroAdvantageGroups: 0 }, trainer: null,
    ...(anchor ? { anchor } : {}),
  };
}
const anchorBlock = (solved: number, attempts: number): StepMetrics['anchor'] => ({ episodes: 1, discarded: 0, invalid: 0, solverAttempts: attempts, solved, solveRate: solved / attempts });

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

describe('scripts/ablate-anchoring', () => {
  it('runs plain then anchored self-play on the same flags (procedural by default), evaluates each on --eval-set, and prints both with ratios', async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-ablate-anchoring-'));
    const calls: string[][] = [];
    const cli = async (args: string[]) => {
      calls.push(args);
      const out = args[args.indexOf('--out') + 1]!;
      await mkdir(out, { recursive: true });
      const anchored = args.includes('--anchor-set');
      if (args[0] === 'selfplay') {
        const lines = anchored ? [metrics(1, 0.5, anchorBlock(1, 2)), metrics(2, 0.5, anchorBlock(2, 2))] : [metrics(1, 0.25), metrics(2, 0.25)];
        await writeFile(join(out, 'metrics.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      } else {
        await writeFile(join(out, 'eval.json'), JSON.stringify({ all: { solveRate: out.includes('anchored') ? 0.6 : 0.4 } }));
      }
      return 0;
    };
    let printed = '';
    const stdout = { write: (text: string) => ((printed += text), true) } as unknown as NodeJS.WritableStream;
    const argv = ['--repo', 'pyrange', '--steps', '2', '--seed', '3', '--anchor-set', '/sets/mined', '--anchor-ratio', '0.5', '--eval-set', '/sets/held-out', '--out', root];
    expect(await runAnchoringAblation(argv, cli, stdout)).toBe(0);
    const common = ['--repo', 'pyrange', '--steps', '2', '--seed', '3', '--policy', 'procedural'];
    expect(calls).toEqual([
      ['selfplay', ...common, '--out', join(root, 'plain')],
      ['eval', '--seed', '3', '--policy', 'procedural', '--set', '/sets/held-out', '--out', join(root, 'plain', 'eval')],
      ['selfplay', ...common, '--out', join(root, 'anchored'), '--anchor-set', '/sets/mined', '--anchor-ratio', '0.5'],
      ['eval', '--seed', '3', '--policy', 'procedural', '--set', '/sets/held-out', '--out', join(root, 'anchored', 'eval')],
    ]);
    const rows = printed.trimEnd().split('\n').map((row) => row.trim().split(/\s{2,}/));
    expect(rows[0]).toEqual(['variant', 'steps', 'training solve rate (synthetic o1)', 'anchor solve rate', 'held-out solve rate']);
    expect(rows.slice(1)).toEqual([
      ['plain', '2', '0.250', '—', '0.400'],
      ['anchored', '2', '0.500', '0.750', '0.600'],
      ['anchored / plain', '×2.00', '—', '×1.50'],
    ]);
  });

  it('needs --out and --anchor-set', async () => {
    await expect(runAnchoringAblation(['--repo', 'x', '--out', '/tmp/x'], async () => 0)).rejects.toThrow(/give --out <dir> and --anchor-set/);
  });
});

describe('the report on anchoring', () => {
  it('shows per step the anchor solve rate beside the synthetic one, and nothing for a run without anchoring', () => {
    const steps = [metrics(1, 0.25, anchorBlock(1, 2)), metrics(2, 0.5, anchorBlock(0, 2))];
    expect(anchorLine(steps)).toBe('anchoring: 2 anchor episode(s), anchor solve rate 25% (1/4); per step: 1: 1/2 (synthetic o1 25%), 2: 0/2 (synthetic o1 50%)');
    expect(anchorSection(steps)).toContain('<h2>Anchoring</h2>');
    expect(anchorSection(steps)).toContain('<td class="num">1/2</td><td class="num">50%</td><td class="num">25%</td>');
    expect(anchorLine([metrics(1, 0.25)])).toBeNull();
    expect(anchorSection([metrics(1, 0.25)])).toBe('');
  });
});
