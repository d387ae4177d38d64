import { describe, expect, it } from 'vitest';
import type { GoldenGate } from '../../../src/selfplay/golden-gate/judge-golden-gate.js';
import { oneUserRefusal, type OneUserInput } from '../../../src/selfplay/golden-gate/one-user-policy.js';
import { resumeKey, selfplaySettingsSchema } from '../../../src/selfplay/selfplay-settings.js';

const gate = (repo: string, oneUser: boolean): GoldenGate => ({
  status: 'passed', repo, commit: 'c0', image: 'img:1', cleanMs: [1_000, 1_000], tests: 3, quarantined: [], testTimeoutMs: 90_000, raisedFromMs: null,
  ...(oneUser ? { oneUser: true as const } : {}),
});
const input = (overrides: Partial<OneUserInput>): OneUserInput => ({ command: 'selfplay', backend: 'docker', allowed: false, ...overrides });

describe('oneUserRefusal: self-play refuses to train where code under test can forge a +1', () => {
  it.each([
    ['selfplay on bubblewrap, before any gate', input({ backend: 'bwrap' }), /^ssr selfplay: on the bwrap backend the tests always run as the sandbox's only user, .*--sandbox docker.*pass --allow-one-user-grading/],
    ['selfplay on a non-root pod, once its gate says so', input({ backend: 'k8s', gates: [gate('a', false), gate('pyledger', true)] }), /^ssr selfplay: on the k8s backend the golden gate of pyledger found the tests ran as the sandbox's only user.*--allow-one-user-grading/],
  ])('refuses %s', (_name, given, message) => {
    expect(oneUserRefusal(given)).toMatch(message);
  });

  it.each([
    ['selfplay on Docker', input({ gates: [gate('pyledger', false)] })],
    ['selfplay on a root pod, its gate passed as two users', input({ backend: 'k8s', gates: [gate('pyledger', false)] })],
    ['selfplay on a pod before its gate ran', input({ backend: 'k8s' })],
    ['selfplay on bubblewrap with --allow-one-user-grading', input({ backend: 'bwrap', allowed: true, gates: [gate('pyledger', true)] })],
    ['corpus on bubblewrap (trains nothing; the gate warns)', input({ command: 'corpus', backend: 'bwrap', gates: [gate('pyledger', true)] })],
  ])('lets through %s', (_name, given) => {
    expect(oneUserRefusal(given)).toBeNull();
  });

  it("records the flag in run.json's settings only when given (runs started without it still resume)", () => {
    const settings = (allow: boolean) => selfplaySettingsSchema.parse({ episodesPerStep: 1, allowOneUserGrading: allow });
    expect(resumeKey(settings(true), {})).toMatchObject({ allowOneUserGrading: true });
    expect(resumeKey(settings(false), {})).not.toHaveProperty('allowOneUserGrading');
  });
});
