import { describe, expect, it } from 'vitest';
import { discover, type Discovery } from '../../../../src/policy/procedural/injector/discover.js';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import type { ProgramStep, Steps } from '../../../../src/policy/procedural/program.js';

// What the sandbox prints for each of discovery's commands on a tiny repo (one code file, two tests).
const LISTED = '@@py 20 400 pkg/a.py\n@@py 10 200 tests/test_a.py\n';
const LISTING = `@@files 2\n@@plain ${LISTED.length}\n${LISTED}\n@@plain-end\n@@tree a0fcf854bb26b37599c51843decfcb341a864f73 0123456789abcdef`;
const CLEAN = '@@exit 0\n@@suite full\n@@ms 100\n@@run passed=2 failed=0\n@@group tests/test_a.py passed=2 failed=0';
const NOTHING_PASSES = '@@exit 1\n@@suite full\n@@ms 100\n@@run passed=0 failed=2\n@@group tests/test_a.py passed=0 failed=2';

type Kind = 'listing' | 'clean' | 'pack' | 'page' | 'restore';
function kindOf(step: ProgramStep): Kind {
  const command = step.tool === 'bash' ? step.args.command : '';
  if (command.includes('@@files')) return 'listing';
  if (command.includes('summarize_run.py')) return 'clean';
  if (command.includes('tar czf')) return 'pack';
  if (command.includes('@@page')) return 'page';
  if (command.includes('base64 -d')) return 'restore';
  throw new Error(`unexpected step: ${step.rationale}`);
}

function observed(text: string): Observation {
  return { tool: 'bash', text, ok: true, exitCode: 0, timedOut: false, turnsLeft: null, tokensLeft: null, raw: text };
}

/** One episode's discovery, stepped by hand: the kinds of the steps it made, and what the sandbox answers. */
function episode(memos: Map<string, unknown>, clean = CLEAN) {
  const program: Steps<Discovery> = discover({ coverage: false, maxRunS: 60, memos });
  const kinds: Kind[] = [];
  const answers: Record<Kind, string> = { listing: LISTING, clean, pack: '@@b64 8', page: '@@page AAAAAAAA', restore: '@@restored' };
  let last: Kind | null = null;
  return {
    kinds,
    /** Resume with the answer to the last step; resolves with the next step's kind, or the outcome. */
    async step(): Promise<Kind | Discovery> {
      const next = last === null ? await program.next() : await program.next(observed(answers[last]));
      if (next.done) return next.value;
      last = kindOf(next.value);
      kinds.push(last);
      return last;
    },
    /** Cut the episode off, as the loop does at a limit (ProceduralPolicy.endEpisode). */
    async end(): Promise<void> {
      await program.return({ status: 'failed', reason: 'ended by the loop' });
    },
  };
}

/** Whether `promise` is still pending once every queued callback has run (nothing here waits on a clock). */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (await Promise.race([promise, new Promise((resolve) => setImmediate(() => resolve(marker)))])) === marker;
}

describe('discovery shared between episodes that start together', () => {
  it('the second episode waits for the first one\'s clean run and restores it instead of running the suite again', async () => {
    const memos = new Map<string, unknown>();
    const first = episode(memos);
    const second = episode(memos);
    expect(await first.step()).toBe('listing');
    expect(await second.step()).toBe('listing');
    expect(await first.step()).toBe('clean');
    const waiting = second.step();
    expect(await pending(waiting)).toBe(true);
    expect(await first.step()).toBe('pack');
    expect(await first.step()).toBe('page');
    expect(await first.step()).toMatchObject({ status: 'ok' });
    expect(await waiting).toBe('restore');
    const outcome = (await second.step()) as Discovery;
    expect(outcome.status === 'ok' && outcome.facts.baseline.passed).toBe(2);
    expect(second.kinds).toEqual(['listing', 'restore']);
  });

  it('discovers itself when the episode it waited for kept nothing (no test passed there)', async () => {
    const memos = new Map<string, unknown>();
    const first = episode(memos, NOTHING_PASSES);
    const second = episode(memos);
    await first.step();
    await second.step();
    expect(await first.step()).toBe('clean');
    const waiting = second.step();
    expect(await first.step()).toBe('clean'); // the unittest fallback
    expect(await pending(waiting)).toBe(true);
    expect(await first.step()).toMatchObject({ status: 'failed' });
    expect(await waiting).toBe('clean');
  });

  it('discovers itself when the episode it waited for was cut off mid-run', async () => {
    const memos = new Map<string, unknown>();
    const first = episode(memos);
    const second = episode(memos);
    await first.step();
    await second.step();
    expect(await first.step()).toBe('clean');
    const waiting = second.step();
    expect(await pending(waiting)).toBe(true);
    await first.end();
    expect(await waiting).toBe('clean');
  });
});
