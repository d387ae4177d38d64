import PQueue from 'p-queue';
import { describe, expect, it } from 'vitest';
import { RunPolicy } from '../../../src/selfplay/run-policy.js';
import { ScriptedPolicy } from '../../../src/policy/scripted-policy.js';
import type { PolicyRequest } from '../../../src/policy/policy.js';
import { TokensPolicy } from '../../../src/policy/tokens-policy.js';

const request: PolicyRequest = { episodeId: 'e', role: 'solver', messages: [{ role: 'user', content: 'hi' }], tools: [] };

describe('RunPolicy', () => {
  it('reports the trainer version after a step and tells a version-aware policy', async () => {
    const inner = Object.assign(new ScriptedPolicy([{ content: 'a' }, { content: 'b' }], { version: 1 }), { told: [] as number[] });
    (inner as unknown as { advanceVersion: (v: number) => void }).advanceVersion = (v) => inner.told.push(v);
    const policy = new RunPolicy(inner, new PQueue({ concurrency: 1 }));
    expect(policy.version).toBe(1);
    policy.advanceTo(4);
    expect(policy.version).toBe(4);
    expect(inner.told).toEqual([4]);
    policy.advanceTo(2);
    expect(policy.version).toBe(4);
    expect((await policy.complete(request)).message.content).toBe('a');
  });

  it('moves a tokens-mode policy to the trainer version, so servers that report none sample as it', () => {
    const tokens = new TokensPolicy({ baseUrl: 'http://127.0.0.1:1', model: 'toy', env: {} });
    const policy = new RunPolicy(tokens, new PQueue({ concurrency: 1 }));
    policy.advanceTo(3);
    expect(tokens.version).toBe(3);
    expect(policy.version).toBe(3);
  });

  it('serves what the sampler confirmed: a tokens policy then requests the adapter by name; a policy that cannot switch is refused', () => {
    const tokens = new TokensPolicy({ baseUrl: 'http://127.0.0.1:1', model: 'base', env: {} });
    const policy = new RunPolicy(tokens, new PQueue({ concurrency: 1 }));
    policy.serve({ version: 2, model: 'ssr-v2' });
    expect([tokens.name, tokens.version, policy.version]).toEqual(['tokens:ssr-v2', 2, 2]);
    const scripted = new RunPolicy(new ScriptedPolicy([]), new PQueue({ concurrency: 1 }));
    expect(() => scripted.serve({ version: 2, model: 'ssr-v2' })).toThrow(/serves the new weights as model ssr-v2.*use --policy tokens/);
    scripted.serve({ version: 2 });
    expect(scripted.version).toBe(2);
  });

  it('runs at most the lane size of calls at once', async () => {
    let running = 0;
    let peak = 0;
    const slow = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      return { content: 'x' };
    };
    const policy = new RunPolicy(new ScriptedPolicy(Array.from({ length: 6 }, () => slow)), new PQueue({ concurrency: 2 }));
    await Promise.all(Array.from({ length: 6 }, () => policy.complete(request)));
    expect(peak).toBe(2);
  });
});
