import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentExit } from '../../../src/agent/agent-exit.js';
import { runAgent, type RunAgentOptions } from '../../../src/agent/run-agent.js';
import { JsonlTrajectoryWriter, readTrajectory, type Trajectory } from '../../../src/agent/trajectory.js';
import type { AgentRole, PolicyTurn } from '../../../src/policy/policy.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { ScriptedPolicy, type ScriptedStep } from '../../../src/policy/scripted-policy.js';
import { toolsForRole } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/tool.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { dockerTemplate, tinyRepo } from '../../helpers/sandboxes.js';

// One real sandbox for the file: every episode below works on its own paths.
let sandbox: Sandbox;
let dir: string;
let episode = 0;

beforeAll(async () => {
  sandbox = await createProvider('docker').acquire(await dockerTemplate(await tinyRepo()));
  dir = await mkdtemp(join(tmpdir(), 'ssr-agent-'));
});

afterAll(async () => {
  await sandbox?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const bash = (command: string): ScriptedStep => ({ toolCall: { name: 'bash', arguments: { command } } });
const submit = (patch: string): ScriptedStep => ({ toolCall: { name: 'submit', arguments: { patch } } });
const summary: ScriptedStep = { content: 'Fixed the bug and submitted the patch.' };
const quit: PolicyTurn = { message: { role: 'assistant', content: 'I give up.' }, toolCalls: [], usage: { promptTokens: 0, completionTokens: 0 }, finishReason: 'stop' };

interface Episode {
  exit: AgentExit;
  trajectory: Trajectory;
  policy: ScriptedPolicy;
  path: string;
}

/** Run one episode of the scripted policy and read its trajectory back from disk. */
async function play(steps: ScriptedStep[], options: Partial<RunAgentOptions> & { role?: AgentRole } = {}): Promise<Episode> {
  const policy = new ScriptedPolicy(steps, { version: 7 });
  const path = join(dir, `episode-${++episode}.jsonl`);
  const writer = await JsonlTrajectoryWriter.open(path);
  const role = options.role ?? 'solver';
  try {
    const exit = await runAgent({
      policy, sandbox, role, systemPrompt: 'You are a careful engineer.', userPrompt: 'Fix calc.py.',
      tools: toolsForRole(role), episodeId: `ep-${episode}`, seed: 42, trajectory: writer, ...options,
    });
    return { exit, trajectory: await readTrajectory(path), policy, path };
  } finally {
    await writer.close();
  }
}

/** The trajectory's records must agree with the exit record and with what the policy saw. */
function expectConsistent({ exit, trajectory, policy }: Episode): void {
  expect(trajectory.truncated).toBe(false);
  expect(trajectory.exit).toEqual({ type: 'exit', ...exit });
  expect(trajectory.steps.map((s) => s.turn)).toEqual(Array.from({ length: exit.turns }, (_, i) => i + 1));
  expect(exit.usage.completionTokens).toBe(trajectory.steps.reduce((n, s) => n + s.usage.completionTokens, 0));
  expect(policy.endedEpisodes).toEqual([trajectory.header.episodeId]);
}

describe('runAgent', () => {
  it('ends as submitted when a submit is followed by a plain summary, with the contents read from the sandbox', async () => {
    const played = await play([
      bash('mkdir -p /ssr/a1 && cd /ssr/a1'),
      { content: 'Writing the patch.', toolCall: { name: 'create', arguments: { path: 'fix.diff', content: 'diff 1\n' } } },
      submit('/ssr/a1/fix.diff'),
      bash('echo "diff 2" > fix.diff'),
      submit('fix.diff'), // tool paths are relative to /repo, not to the shell's cwd: this is the create'd one
      submit('/ssr/a1/fix.diff'), // the last submission counts
      summary,
    ]);
    const { exit, trajectory, policy } = played;
    expect(exit).toMatchObject({ exitStatus: 'submitted', submission: { type: 'solver', patch: 'diff 2\n' }, turns: 7, formatErrors: 0 });
    expect(exit.error).toBeUndefined();
    expectConsistent(played);

    expect(trajectory.header).toMatchObject({
      type: 'header', episodeId: 'ep-1', role: 'solver', policy: { name: 'scripted', version: 7 }, seed: 42,
      systemPrompt: 'You are a careful engineer.', userPrompt: 'Fix calc.py.',
      limits: { maxTurns: 128, maxContextTokens: 128_000, commandTimeoutMs: 120_000, maxFormatErrorStreak: 5 },
    });
    expect(trajectory.header.tools.map((t) => t.name)).toEqual(['bash', 'edit', 'create', 'submit']);
    const steps = trajectory.steps;
    expect(steps.map((s) => [s.toolCall?.name, s.isError, s.submitted])).toEqual([
      ['bash', false, false],
      ['create', false, false], // created in /repo: tool paths are relative to /repo…
      ['submit', true, false], // …so /ssr/a1/fix.diff is still missing here
      ['bash', false, false],
      ['submit', false, true],
      ['submit', false, true],
      [undefined, undefined, false],
    ]);
    expect(steps[1]!.observations[0]!.content).toMatch(/^Created \/repo\/fix\.diff/);
    expect(steps.at(-1)!.observations).toEqual([]);
    expect(steps[0]!.observations).toEqual([
      { role: 'tool', toolCallId: 'call_0', name: 'bash', content: expect.stringMatching(/^\(no output\)\n\n\[127 turns and ~\d+ tokens left\]$/) },
    ]);
    expect(steps.every((s) => s.policyVersion === 7 && s.timings.policyMs >= 0 && s.timings.toolMs >= 0)).toBe(true);
    // The policy saw the conversation grow: system, user, then one assistant + one observation per turn.
    expect(policy.requests.map((r) => r.messages.length)).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(policy.requests[1]!.messages[1]).toEqual({ role: 'user', content: 'Fix calc.py.' });
    expect(policy.requests[0]!.tools.map((t) => t.name)).toEqual(['bash', 'edit', 'create', 'submit']);
  });

  it('runs the injector submit, recording the five files', async () => {
    const setup = 'mkdir -p /ssr/inj && cd /ssr/inj && for f in bug_inject.diff test_weaken.diff test_files.txt test_script.sh test_parser.py; do echo "$f" > $f; done';
    const args = { bug_inject: '/ssr/inj/bug_inject.diff', test_weaken: '/ssr/inj/test_weaken.diff', test_files: '/ssr/inj/test_files.txt', test_script: '/ssr/inj/test_script.sh', test_parser: '/ssr/inj/test_parser.py' };
    const { exit } = await play([bash(setup), { toolCall: { name: 'submit', arguments: args } }, summary], { role: 'injector' });
    expect(exit).toMatchObject({
      exitStatus: 'submitted',
      submission: { type: 'injector', bugInject: 'bug_inject.diff\n', testWeaken: 'test_weaken.diff\n', testFiles: 'test_files.txt\n', testScript: 'test_script.sh\n', testParser: 'test_parser.py\n' },
    });
  });

  it.each<[string, ScriptedStep[], Partial<RunAgentOptions['limits']>, Partial<AgentExit>]>([
    ['turn limit', [bash('echo 1'), bash('echo 2'), bash('echo 3'), bash('echo 4')], { maxTurns: 3 }, { exitStatus: 'turn-limit', turns: 3, submission: null }],
    [
      'turn limit keeps the last submission',
      [bash('echo p > /ssr/tl.diff'), submit('/ssr/tl.diff'), bash('echo later')],
      { maxTurns: 3 },
      { exitStatus: 'turn-limit', turns: 3, submission: { type: 'solver', patch: 'p\n' } },
    ],
    [
      'context limit from the usage the policy reports',
      [bash('echo 1'), { toolCall: { name: 'bash', arguments: { command: 'echo 2' } }, usage: { promptTokens: 9_900, completionTokens: 50 } }, bash('echo 3')],
      { maxContextTokens: 10_000 },
      { exitStatus: 'context-limit', turns: 2 },
    ],
    [
      'context limit from the estimate when usage is absent',
      [{ toolCall: { name: 'bash', arguments: { command: 'seq 1 3000' } }, usage: { promptTokens: 0, completionTokens: 0 } }, bash('echo never')],
      { maxContextTokens: 3_000 },
      { exitStatus: 'context-limit', turns: 1 },
    ],
    [
      'a give-up: the policy ends without submitting and says why (no format error, no retry)',
      [bash('echo looking'), (): PolicyTurn => ({ ...quit, gaveUp: 'found nothing to change' }), bash('echo never')],
      {},
      { exitStatus: 'gave-up', gaveUp: 'found nothing to change', turns: 2, formatErrors: 0, submission: null },
    ],
    [
      'a give-up flag after a submission is just the summary',
      [bash('echo g > /ssr/gu.diff'), submit('/ssr/gu.diff'), (): PolicyTurn => ({ ...quit, gaveUp: 'done anyway' })],
      {},
      { exitStatus: 'submitted', turns: 3, formatErrors: 0, submission: { type: 'solver', patch: 'g\n' } },
    ],
    [
      'a plain message without the flag is still a format error',
      [(): PolicyTurn => quit, bash('echo 1')],
      { maxTurns: 2 },
      { exitStatus: 'turn-limit', turns: 2, formatErrors: 1 },
    ],
    [
      'a streak of malformed turns',
      [{ content: 'thinking' }, { text: '<tool_call>{"name": "bash"' }, { toolCall: { name: 'nope', arguments: {} } }, { toolCall: { name: 'bash', arguments: { cmd: 'ls' } } }, { content: 'still thinking' }],
      { maxFormatErrorStreak: 5 },
      { exitStatus: 'format-errors', turns: 5, formatErrors: 5 },
    ],
    [
      'a valid call resets the streak',
      [{ content: 'a' }, { content: 'b' }, bash('true'), { content: 'c' }, { content: 'd' }, { content: 'e' }],
      { maxFormatErrorStreak: 3 },
      { exitStatus: 'format-errors', turns: 6, formatErrors: 5 },
    ],
  ])('%s', async (_name, steps, limits, expected) => {
    const played = await play(steps, { limits });
    expect(played.exit).toMatchObject(expected);
    expect(played.exit.error).toBeUndefined();
    expectConsistent(played);
  });

  it("context limit at the model's own context when it is smaller than maxContextTokens (a 32k server)", async () => {
    const steps = [bash('echo 1'), { toolCall: { name: 'bash', arguments: { command: 'echo 2' } }, usage: { promptTokens: 9_900, completionTokens: 50 } }, bash('echo 3')];
    const policy = Object.assign(new ScriptedPolicy(steps), { contextLength: 10_000 });
    const played = await play([], { policy, limits: { maxContextTokens: 128_000 } });
    expect(played.exit).toMatchObject({ exitStatus: 'context-limit', turns: 2 });
  });

  it('tells the model what went wrong on malformed turns', async () => {
    const twoCalls: ScriptedStep = (): PolicyTurn => {
      const calls = [
        { id: 'a', name: 'bash', arguments: { command: 'touch /ssr/two-a' } },
        { id: 'b', name: 'bash', arguments: { command: 'touch /ssr/two-b' } },
      ];
      return { message: { role: 'assistant', content: '', toolCalls: calls }, toolCalls: calls, usage: { promptTokens: 10, completionTokens: 5 }, finishReason: 'tool_calls' };
    };
    const { trajectory } = await play(
      [{ content: 'hmm' }, twoCalls, { toolCall: { name: 'vim', arguments: {} } }, { toolCall: { name: 'edit', arguments: { path: 'calc.py' } } }, bash('ls /ssr/two-a /ssr/two-b 2>/dev/null | wc -l')],
      { limits: { maxTurns: 5 } },
    );
    const seen = trajectory.steps.map((s) => s.observations.map((o) => `${o.role}: ${o.content}`));
    expect(seen[0]).toEqual([expect.stringMatching(/^user: No tool call found\. .*Call exactly one tool per turn \(bash, edit, create, submit\); when the task is done, call submit\.\n\n\[4 turns/s)]);
    expect(seen[1]).toEqual([
      'tool: Not run: this turn made 2 tool calls. Call exactly one tool per turn; none of them was run.',
      expect.stringMatching(/^tool: Not run: .*\n\n\[3 turns and ~\d+ tokens left\]$/),
    ]);
    expect(seen[2]![0]).toMatch(/^tool: Unknown tool `vim`\. Available tools: bash, edit, create, submit\./);
    expect(seen[3]![0]).toMatch(/^tool: Invalid arguments for `edit`:\n- search: .*\n- replace: /);
    expect(seen[4]![0]).toMatch(/^tool: 0\n/); // neither of the two calls ran
    expect(trajectory.steps.map((s) => s.formatError !== undefined)).toEqual([true, true, true, true, false]);
  });

  it.each<[string, Error, Partial<AgentExit>]>([
    ['an EngineError from the policy is infrastructure', new EngineError('policy-unavailable', 'endpoint 503', { retryable: true }), { exitStatus: 'infrastructure-error', error: { message: 'endpoint 503', code: 'policy-unavailable', retryable: true } }],
    ['anything else the policy throws is a policy error', new TypeError('cannot read x of undefined'), { exitStatus: 'policy-error', error: { message: 'cannot read x of undefined' } }],
  ])('%s', async (_name, error, expected) => {
    const played = await play([bash('echo p > /ssr/pe.diff'), submit('/ssr/pe.diff'), error]);
    // The submission is kept in the record, but the status says it must not be scored.
    expect(played.exit).toMatchObject({ ...expected, turns: 2, submission: { type: 'solver', patch: 'p\n' } });
    expectConsistent(played);
  });

  it('ends at the wall-time limit, aborting a policy call that hangs', async () => {
    const hang: ScriptedStep = (request) =>
      new Promise((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason as Error)));
    const started = Date.now();
    const played = await play([bash('true'), hang], { limits: { maxWallMs: 3000 } });
    expect(played.exit).toMatchObject({ exitStatus: 'time-limit', turns: 1 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expectConsistent(played);
  });

  it('caps a command at the remaining wall time', async () => {
    // 2.2 s, not 2.5 s: the note rounds the remaining time to whole seconds, and 2.5 s left (a
    // turn that took under a millisecond) would round to 3.
    const played = await play([bash('sleep 20')], { limits: { maxWallMs: 2200 } });
    expect(played.exit).toMatchObject({ exitStatus: 'time-limit', turns: 1 });
    expect(played.trajectory.steps[0]!.observations[0]!.content).toMatch(/^\(no output\)\n\[timed out after 2 s/);
  });

  it('ends as cancelled when the caller aborts', async () => {
    const controller = new AbortController();
    const abort: ScriptedStep = () => {
      controller.abort();
      return { toolCall: { name: 'bash', arguments: { command: 'true' } } };
    };
    const played = await play([abort, bash('never')], { signal: controller.signal });
    expect(played.exit).toMatchObject({ exitStatus: 'cancelled', turns: 1 });
  });

  it('ends as infrastructure-error when the sandbox dies under a tool', async () => {
    const dead = await createProvider('docker').acquire(await dockerTemplate(await tinyRepo()));
    const kill: ScriptedStep = async () => {
      await dead.dispose();
      return { toolCall: { name: 'bash', arguments: { command: 'ls' } } };
    };
    const played = await play([bash('true'), kill], { sandbox: dead });
    expect(played.exit).toMatchObject({ exitStatus: 'infrastructure-error', turns: 2, error: { code: 'sandbox-failed' } });
    expectConsistent(played);
    expect(played.trajectory.steps[1]).toMatchObject({ toolCall: { name: 'bash' }, observations: [] });
  });

  it('ends as tool-error when a tool throws something other than an EngineError (a bug, never a reward)', async () => {
    const broken: Tool<{ n: number }> = {
      name: 'broken', description: 'always throws', schema: z.object({ n: z.number() }),
      run: async () => {
        throw new RangeError('bug in a tool');
      },
    };
    const played = await play([{ toolCall: { name: 'broken', arguments: { n: 1 } } }], { tools: [...toolsForRole('solver'), broken] });
    expect(played.exit).toMatchObject({ exitStatus: 'tool-error', turns: 1, error: { message: 'bug in a tool' } });
    expectConsistent(played);
  });

  it('writes the trajectory as it goes: header first, one line per finished step, the exit record last', async () => {
    let path = '';
    const lines = async (): Promise<number> => (await readFile(path, 'utf8')).split('\n').filter(Boolean).length;
    const seen: number[] = [];
    const check = (step: ScriptedStep): ScriptedStep => async (request) => {
      seen.push(await lines());
      return typeof step === 'function' ? step(request) : (step as never);
    };
    path = join(dir, `episode-${episode + 1}.jsonl`);
    const played = await play([check(bash('echo x > /ssr/w.diff')), check(submit('/ssr/w.diff')), check(summary)]);
    expect(seen).toEqual([1, 2, 3]);
    expect(played.path).toBe(path);
    const records = (await readFile(path, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(records.map((r) => r.type)).toEqual(['header', 'step', 'step', 'step', 'exit']);
  });
});
