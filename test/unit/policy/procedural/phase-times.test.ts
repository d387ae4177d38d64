import { describe, expect, it } from 'vitest';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import { timedSteps, type PhaseTimes } from '../../../../src/policy/procedural/phase-times.js';
import { ProceduralPolicy } from '../../../../src/policy/procedural/procedural-policy.js';
import { bash, type Program, type ProgramContext, type Steps } from '../../../../src/policy/procedural/program.js';

const OBSERVATION = (text: string): Observation => ({ tool: 'bash', text, ok: true, exitCode: 0, timedOut: false, turnsLeft: null, tokensLeft: null, raw: text });

async function* twoSteps(): Steps<string> {
  const a = yield bash('run o', 'clean run');
  const b = yield bash('trace --map', 'traced run');
  return `${a.text}+${b.text}`;
}

describe('timedSteps', () => {
  it("adds each step's time, from its yield to the resumption, to the phase named for it, and passes everything through", async () => {
    let clock = 0;
    const times: PhaseTimes = { discover: 5 };
    const timed = timedSteps(twoSteps(), times, (step) => (step.tool === 'bash' && step.args.command.includes('--map') ? 'trace' : 'discover'), () => clock);
    expect((await timed.next()).value).toMatchObject({ args: { command: 'run o' } });
    clock += 40; // the clean run took 40 ms
    expect((await timed.next(OBSERVATION('o'))).value).toMatchObject({ args: { command: 'trace --map' } });
    clock += 300;
    const last = await timed.next(OBSERVATION('t'));
    expect(last).toEqual({ done: true, value: 'o+t' });
    expect(times).toEqual({ discover: 45, trace: 300 });
  });
});

describe('ProceduralPolicy phase times', () => {
  it("hands out an ended episode's phase times once; an episode that timed nothing has none", async () => {
    async function* injector(ctx: ProgramContext): Program {
      ctx.phaseMs!.discover = 12;
      yield bash('true', 'one step');
      return 'No bug submitted.';
    }
    async function* solver(): Program {
      yield bash('true', 'one step');
      return 'done';
    }
    const policy = new ProceduralPolicy({ programs: { injector, solver } });
    const messages = [{ role: 'system' as const, content: 's' }, { role: 'user' as const, content: 'u' }];
    await policy.complete({ episodeId: 'i', role: 'injector', messages, tools: [] });
    await policy.complete({ episodeId: 's', role: 'solver', messages, tools: [] });
    policy.endEpisode('i');
    policy.endEpisode('s');
    expect(policy.takePhaseTimes('i')).toEqual({ discover: 12 });
    expect(policy.takePhaseTimes('i')).toBeUndefined();
    expect(policy.takePhaseTimes('s')).toBeUndefined();
  });
});
