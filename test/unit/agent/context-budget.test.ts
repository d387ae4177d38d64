import { describe, expect, it } from 'vitest';
import { exitEarnsReward, exitStatusSchema, type ExitStatus } from '../../../src/agent/agent-exit.js';
import { ContextBudget, estimateMessages } from '../../../src/agent/context-budget.js';

describe('ContextBudget', () => {
  it('estimates ~4 characters a token plus a little per message', () => {
    expect(estimateMessages([{ role: 'user', content: 'x'.repeat(400) }])).toBe(104);
    const call = [{ id: 'c', name: 'bash', arguments: { command: 'ls' } }];
    expect(estimateMessages([{ role: 'assistant', content: '', toolCalls: call }])).toBe(4 + Math.ceil(JSON.stringify(call).length / 4));
  });

  it('trusts reported usage and estimates only what came after it', () => {
    const budget = new ContextBudget(1000);
    budget.add([{ role: 'user', content: 'x'.repeat(400) }]);
    expect(budget.used()).toBe(104);
    budget.afterTurn({ promptTokens: 300, completionTokens: 20 }, { role: 'assistant', content: 'ignored when usage is reported' });
    expect(budget.used()).toBe(320);
    budget.add([{ role: 'tool', content: 'y'.repeat(40), toolCallId: 'c', name: 'bash' }]);
    expect(budget.used()).toBe(334);
    budget.afterTurn({ promptTokens: 0, completionTokens: 0 }, { role: 'assistant', content: 'z'.repeat(40) });
    expect(budget.used()).toBe(348);
    expect(budget.remaining()).toBe(652);
    budget.add([{ role: 'user', content: 'w'.repeat(4000) }]);
    expect(budget.remaining()).toBe(0);
  });
});

describe('exitEarnsReward', () => {
  it.each<[ExitStatus, boolean]>([
    ['submitted', true],
    ['turn-limit', true],
    ['context-limit', true],
    ['time-limit', true],
    ['format-errors', true],
    ['gave-up', true],
    ['infrastructure-error', false],
    ['policy-error', false],
    ['tool-error', false],
    ['cancelled', false],
  ])('%s → %s', (status, scored) => {
    expect(exitEarnsReward(status)).toBe(scored);
  });

  it('covers every status', () => {
    expect(exitStatusSchema.options).toHaveLength(10);
  });
});
