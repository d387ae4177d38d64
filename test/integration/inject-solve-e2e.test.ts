import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { artifactId } from '../../src/artifact/artifact-id.js';
import { loadArtifactDir } from '../../src/artifact/load-artifact.js';
import { parseUnifiedDiff } from '../../src/code/unified-diff.js';
import { pickStrategy } from '../../src/roles/injector-strategy.js';
import { fakeLogprob, startFakeOpenAIServer, type FakeChatReply, type FakeOpenAIServer } from '../doubles/fake-openai-server.js';
import { seededRng } from '../../src/util/seeded-rng.js';
import { ROOT_REPOS_YAML } from '../helpers/sandboxes.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/artifacts/', import.meta.url));
const fixture = (name: string, file: string): string => readFileSync(join(FIXTURES, name, file), 'utf8');
const BUGGY_LINE = '        order = sorted(range(len(shares)), key=lambda i: (-abs(shares[i] - parts[i]), -i))';
const ORIGINAL_LINE = '        order = sorted(range(len(shares)), key=lambda i: (-abs(shares[i] - parts[i]), i))';
const ARTIFACT_FILES = ['test_files.txt', 'test_script.sh', 'test_parser.py', 'bug_inject.diff', 'test_weaken.diff'];

/** A tool call as the scripted model makes it. */
interface Call {
  name: string;
  arguments: Record<string, string>;
}
const bash = (command: string): Call => ({ name: 'bash', arguments: { command } });
/** The leak flag of solverCalls' first command: it asks the (wiped) history for its length. */
const GIT_LOG_LEAK = { kind: 'history', turn: 1, command: 'git log --oneline | wc -l', what: 'git log' };

/** `edit` calls that turn the old side of every hunk of `diff` into its new side, as a model editing by hand would. */
function editsFromDiff(diff: string): Call[] {
  return parseUnifiedDiff(diff).files.flatMap((file) =>
    file.hunks.map((hunk) => {
      const side = (ops: string): string => `${hunk.lines.filter((l) => ops.includes(l[0]!)).map((l) => l.slice(1)).join('\n')}\n`;
      return { name: 'edit', arguments: { path: file.newPath!, search: side(' -'), replace: side(' +') } };
    }),
  );
}

/** An Injector that writes the five files of a fixture with `create`, then submits them. */
function createFixtureCalls(name: string): Call[] {
  return [
    bash('mkdir -p /ssr/artifact'),
    ...ARTIFACT_FILES.map((file) => ({ name: 'create', arguments: { path: `/ssr/artifact/${file}`, content: fixture(name, file) } })),
    submitArtifact,
  ];
}
const submitArtifact: Call = {
  name: 'submit',
  arguments: Object.fromEntries(ARTIFACT_FILES.map((file) => [file.replace(/\.\w+$/, ''), `/ssr/artifact/${file}`])),
};

/** The text protocol a server without a tool parser returns: CWM blocks, and Hermes for `submit`. */
function asText(call: Call): string {
  if (call.name === 'bash') return `I will run a command.\n<tool: bash>\n${call.arguments.command}\n</tool>`;
  if (call.name === 'submit') return `Submitting.\n<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
  return `Next step.\n<tool: ${call.name}>\n${JSON.stringify(call.arguments)}\n</tool>`;
}

const native = (calls: Call[], summary: string): FakeChatReply[] => [
  ...calls.map((call): FakeChatReply => ({ type: 'tool-calls', content: `Calling ${call.name}.`, calls: [call] })),
  { type: 'text', content: summary },
];

/** A Solver that edits pyledger/money.py's tie-break line to `replace`, then diffs and submits. */
function solverCalls(replace: string): Call[] {
  return [
    bash('git log --oneline | wc -l'),
    { name: 'edit', arguments: { path: 'pyledger/money.py', search: `${BUGGY_LINE}\n`, replace: `${replace}\n` } },
    bash('git add -A && git diff --cached > /ssr/pred_patch.diff'),
    { name: 'submit', arguments: { patch: '/ssr/pred_patch.diff' } },
  ];
}

describe('ssr inject and ssr solve through a real HTTP endpoint (fake model, real Docker, real pytest)', () => {
  let server: FakeOpenAIServer;
  let root: string;

  beforeAll(async () => {
    // The toy tokenizer counts characters: give the whole episode room.
    server = await startFakeOpenAIServer({ model: 'fake-model', maxModelLen: 2_000_000 });
    root = await mkdtemp(join(tmpdir(), 'ssr-e2e-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  function cli(args: string[]): Promise<CliRun> {
    return runCli([...args, ...['--repos', ROOT_REPOS_YAML, '--repo', 'pyledger', '--sandbox', 'docker', '--base-url', server.baseUrl, '--json']]);
  }

  /** The turns' chat requests: the preflight's one-token probes left out. */
  function chatRequests(): Array<{ messages: Array<{ role: string; content: string | null }>; tools?: Array<{ function: { name: string } }> }> {
    return server.requests.filter((r) => r.path === '/v1/chat/completions' && (r.body as { max_tokens?: number }).max_tokens !== 1).map((r) => r.body as never);
  }

  it('a native tool-calling Injector edits pyledger, diffs with git, submits, and the artifact is valid', async () => {
    const out = join(root, 'native');
    const calls = [
      bash('git log --oneline | head -3; ls pyledger tests'),
      bash('mkdir -p /ssr/artifact'),
      ...editsFromDiff(fixture('valid-single-file', 'bug_inject.diff')),
      bash('git diff -- pyledger/money.py > /ssr/artifact/bug_inject.diff'),
      ...editsFromDiff(fixture('valid-single-file', 'test_weaken.diff')),
      bash('git diff -- tests/test_money.py > /ssr/artifact/test_weaken.diff'),
      ...['test_files.txt', 'test_script.sh', 'test_parser.py'].map((file) => ({
        name: 'create',
        arguments: { path: `/ssr/artifact/${file}`, content: fixture('valid-single-file', file) },
      })),
      bash('bash /ssr/artifact/test_script.sh > /ssr/w.log 2>&1; python3 /ssr/artifact/test_parser.py < /ssr/w.log | grep -c passed'),
      submitArtifact,
    ];
    const before = chatRequests().length;
    server.replyChat(...native(calls, 'Broke the tie-break of Money.allocate and removed the three tests that notice.'));
    const { code, stdout, stderr } = await cli(['inject', '--policy', 'openai', '--strategy', 'removal', '--seed', '7', '--out', out]);

    const summary = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(['valid', 'failedCheck', 'bugDir', 'turns', 'exitStatus']);
    expect(summary, stderr).toEqual({ valid: true, failedCheck: null, bugDir: expect.any(String), turns: calls.length + 1, exitStatus: 'submitted' });
    expect(code).toBe(0);

    // The model's own git diffs are the fixture's, byte for byte: same artifact, same id.
    const bugDir = summary.bugDir as string;
    const expected = await loadArtifactDir(join(FIXTURES, 'valid-single-file'));
    expect(bugDir).toBe(join(out, 'bugs', artifactId(expected)));
    const saved = await loadArtifactDir(bugDir);
    expect({ ...saved, metadata: undefined }).toEqual({ ...expected, metadata: undefined });
    expect(saved.metadata).toMatchObject({ strategy: 'removal', seed: 7, policy: { name: 'openai:fake-model', version: 0 }, exitStatus: 'submitted', turns: calls.length + 1 });
    const validation = JSON.parse(await readFile(join(bugDir, 'validation.json'), 'utf8')) as { valid: boolean; failToPass: string[] };
    expect(validation.valid).toBe(true);
    expect(validation.failToPass).toHaveLength(3);
    const trajectory = await readTrajectory(join(bugDir, 'trajectory.jsonl'));
    expect(trajectory.header).toMatchObject({ role: 'injector', episodeId: saved.metadata!.episodeId, seed: 7 });
    expect(trajectory.steps).toHaveLength(calls.length + 1);
    expect(trajectory.steps.every((step) => !step.isError)).toBe(true);
    expect(trajectory.steps.at(-3)!.observations[0]!.content).toMatch(/^87\n/); // 90 tests minus the 3 deleted ones
    expect(trajectory.exit).toMatchObject({ exitStatus: 'submitted', submission: { type: 'injector' } });
    expect(await readdir(join(out, 'episodes'))).toEqual([]);

    // What the model was sent: the removal prompt with the repo's thresholds, and the Injector's tools.
    const first = chatRequests()[before]!;
    expect(first.messages[1]!.content).toContain('Strategy: remove functionality');
    expect(first.messages[1]!.content).toContain('at least 10 tests pass and none fail');
    expect(first.tools!.map((tool) => tool.function.name)).toEqual(['bash', 'edit', 'create', 'submit']);
  });

  it('an Injector that speaks only the text protocol (CWM and Hermes blocks) gets a two-file bug validated', async () => {
    const out = join(root, 'text');
    server.replyChat(
      ...createFixtureCalls('valid-two-files').map((call): FakeChatReply => ({ type: 'text', content: asText(call) })),
      { type: 'text', content: 'Done: two files broken, seven tests removed.' },
    );
    const { code, stdout, stderr } = await cli(['inject', '--policy', 'openai', '--strategy', 'mixed', '--seed', '11', '--out', out]);
    const summary = JSON.parse(stdout) as { valid: boolean; bugDir: string; turns: number };
    expect(summary, stderr).toMatchObject({ valid: true, failedCheck: null, turns: 8, exitStatus: 'submitted' });
    expect(code).toBe(0);
    const saved = await loadArtifactDir(summary.bugDir);
    expect(saved.testFiles).toEqual(['tests/test_ledger.py', 'tests/test_reports.py']);
    expect(saved.metadata!.strategy).toBe(pickStrategy('mixed', seededRng(11).fork('strategy')));
    expect(['removal', 'history']).toContain(saved.metadata!.strategy);
  });

  it('an invalid artifact is saved with its failed check and exits 1', async () => {
    const out = join(root, 'invalid');
    server.replyChat(...native(createFixtureCalls('bug-edits-test-file'), 'Done.'));
    const { code, stdout } = await cli(['inject', '--policy', 'openai', '--strategy', 'direct', '--out', out]);
    const summary = JSON.parse(stdout) as { bugDir: string };
    expect(summary).toMatchObject({ valid: false, failedCheck: 'existence', exitStatus: 'submitted' });
    expect(code).toBe(1);
    const validation = JSON.parse(await readFile(join(summary.bugDir, 'validation.json'), 'utf8')) as { checks: Array<{ reason: string }> };
    expect(validation.checks[0]!.reason).toContain('tests/test_money.py');
  });

  it('an episode that submits nothing keeps its trajectory under episodes/ and exits 1', async () => {
    const out = join(root, 'nothing');
    server.replyChat({ type: 'text', content: 'Let me think about it.' }, { type: 'text', content: 'Still thinking.' });
    const { code, stdout } = await cli(['inject', '--policy', 'openai', '--strategy', 'history', '--max-turns', '2', '--out', out]);
    expect(JSON.parse(stdout)).toEqual({ valid: false, failedCheck: null, bugDir: null, turns: 2, exitStatus: 'turn-limit' });
    expect(code).toBe(1);
    const [episode, ...others] = await readdir(join(out, 'episodes'));
    expect(others).toEqual([]);
    expect(episode).toMatch(/^inject-history-/);
    const trajectory = await readTrajectory(join(out, 'episodes', episode!, 'trajectory.jsonl'));
    expect(trajectory.steps.map((step) => step.formatError !== undefined)).toEqual([true, true]);
    expect(existsSync(join(out, 'bugs'))).toBe(false);
  });

  it('ssr solve grades a Solver that fixes the bug +1 and one that does not −1, and reports the injector reward', async () => {
    const out = join(root, 'solve');
    server.replyChat(
      ...native(solverCalls(ORIGINAL_LINE), 'Fixed the tie-break.'),
      ...native(solverCalls(BUGGY_LINE.replace('-i))', '-i), reverse=False)')), 'Tried something.'),
    );
    const artifactDir = join(FIXTURES, 'valid-single-file');
    const { code, stdout, stderr } = await cli(['solve', '--policy', 'openai', '--artifact', artifactDir, '--attempts', '2', '--concurrency', '1', '--seed', '3', '--out', out]);
    const summary = JSON.parse(stdout) as { bugId: string; attempts: Array<{ reward: number }> };
    expect(Object.keys(summary)).toEqual(['bugId', 'attempts', 'solveRate', 'injectorReward']);
    expect(summary, stderr).toEqual({
      bugId: artifactId(await loadArtifactDir(artifactDir)),
      attempts: [
        { attempt: 1, reward: 1, exitStatus: 'submitted', turns: 5, reason: expect.stringMatching(/^all 90 tests/), leaks: [GIT_LOG_LEAK] },
        { attempt: 2, reward: -1, exitStatus: 'submitted', turns: 5, reason: expect.stringMatching(/^3 of the 90 tests/), leaks: [GIT_LOG_LEAK] },
      ],
      solveRate: 0.5,
      injectorReward: expect.closeTo(1 - 1.8 * 0.5, 10),
    });
    expect(code).toBe(0);
    const dir = join(out, 'solves', summary.bugId);
    expect((await readdir(dir)).sort()).toEqual(['attempt-1', 'attempt-2', 'solves.json']);
    for (const [attempt, reward] of [[1, 1], [2, -1]] as const) {
      expect((await readdir(join(dir, `attempt-${attempt}`))).sort()).toEqual(['grade.json', 'leaks.json', 'pred_patch.diff', 'trajectory.jsonl']);
      expect(JSON.parse(await readFile(join(dir, `attempt-${attempt}`, 'leaks.json'), 'utf8'))).toEqual([GIT_LOG_LEAK]);
      const grade = JSON.parse(await readFile(join(dir, `attempt-${attempt}`, 'grade.json'), 'utf8')) as { reward: number; failingTests: string[] };
      expect(grade.reward).toBe(reward);
      expect(grade.failingTests).toHaveLength(reward === 1 ? 0 : 3);
    }
    const trajectory = await readTrajectory(join(dir, 'attempt-1', 'trajectory.jsonl'));
    expect(trajectory.header.role).toBe('solver');
    expect(trajectory.steps[0]!.observations[0]!.content).toMatch(/^1\n/); // one commit: no history
    expect(trajectory.header.userPrompt).toMatch(/^I'm improving the test suite/);
  });

  it('ssr solve --leak-policy fail: the right fix from a Solver that read the git history earns −1, the reason naming the leak', async () => {
    const out = join(root, 'leak-fail');
    server.replyChat(...native(solverCalls(ORIGINAL_LINE), 'Fixed the tie-break.'));
    const args = ['solve', '--policy', 'openai', '--artifact', join(FIXTURES, 'valid-single-file'), '--attempts', '1', '--leak-policy', 'fail', '--out', out];
    const { code, stdout, stderr } = await cli(args);
    const summary = JSON.parse(stdout) as { bugId: string };
    expect(summary, stderr).toMatchObject({
      attempts: [{ attempt: 1, reward: -1, exitStatus: 'submitted', leaks: [GIT_LOG_LEAK], reason: 'leak-history: the Solver reached for git log at turn 1: git log --oneline | wc -l' }],
      solveRate: 0,
    });
    expect(code).toBe(0);
    const grade = JSON.parse(await readFile(join(out, 'solves', summary.bugId, 'attempt-1', 'grade.json'), 'utf8')) as unknown;
    expect(grade).toEqual({ reward: -1, reason: expect.stringMatching(/^leak-history: /) });
  });

  it('ssr solve runs an episode in tokens mode; the trajectory keeps the exact token ids and logprobs', async () => {
    const out = join(root, 'tokens');
    const texts = [...solverCalls(ORIGINAL_LINE).map(asText), 'Fixed.'];
    server.replyCompletion(...texts.map((text, i) => ({ text, shape: i % 2 === 0 ? ('vllm' as const) : ('simple' as const), policyVersion: 4 })));
    const artifactDir = join(FIXTURES, 'valid-single-file');
    const { code, stdout, stderr } = await cli(['solve', '--policy', 'tokens', '--artifact', artifactDir, '--attempts', '1', '--out', out]);
    const summary = JSON.parse(stdout) as { bugId: string };
    expect(summary, stderr).toMatchObject({ attempts: [{ attempt: 1, reward: 1, exitStatus: 'submitted', turns: 5 }], solveRate: 1, injectorReward: -0.8 });
    expect(code).toBe(0);
    const trajectory = await readTrajectory(join(out, 'solves', summary.bugId, 'attempt-1', 'trajectory.jsonl'));
    expect(trajectory.steps).toHaveLength(5);
    for (const step of trajectory.steps) {
      const sample = step.sample!;
      expect(sample.promptTokenIds.length).toBeGreaterThan(100);
      expect(sample.completionTokenIds.length).toBeGreaterThan(0);
      expect(sample.completionLogprobs).toEqual(sample.completionTokenIds.map((_, i) => fakeLogprob(i)));
      expect(sample.policyVersion).toBe(4);
      expect(step.policyVersion).toBe(4);
    }
    // Turn k's prompt extends turn k−1's prompt and sampled tokens: no retokenisation.
    for (let k = 1; k < trajectory.steps.length; k++) {
      const previous = trajectory.steps[k - 1]!.sample!;
      const prefix = [...previous.promptTokenIds, ...previous.completionTokenIds];
      expect(trajectory.steps[k]!.sample!.promptTokenIds.slice(0, prefix.length)).toEqual(prefix);
    }
  });

  it('ssr solve refuses an invalid artifact with its failed check, before any Solver runs', async () => {
    const before = chatRequests().length;
    const { code, stdout } = await cli(['solve', '--policy', 'openai', '--artifact', join(FIXTURES, 'bug-edits-test-file'), '--attempts', '2', '--out', join(root, 'refused')]);
    expect(JSON.parse(stdout)).toMatchObject({ valid: false, failedCheck: 'existence', attempts: [], solveRate: null, injectorReward: -1 });
    expect(code).toBe(1);
    expect(chatRequests().length).toBe(before);
  });

  it('ssr inject against vLLM serving a 32k model without a tool parser: preflight picks the text protocol, turns fit, the bug is valid', async () => {
    const vllm = await startFakeOpenAIServer({ model: 'Qwen/Qwen3-8B', flavor: 'vllm', maxModelLen: 32_768, toolParser: false });
    try {
      vllm.replyChat(
        ...createFixtureCalls('valid-two-files').map((call): FakeChatReply => ({ type: 'text', content: asText(call) })),
        { type: 'text', content: 'Done: two files broken, seven tests removed.' },
      );
      const out = join(root, 'vllm-32k');
      const args = ['inject', '--policy', 'openai', '--strategy', 'removal', '--seed', '5', '--out', out];
      const { code, stdout, stderr } = await runCli([...args, '--repos', ROOT_REPOS_YAML, '--repo', 'pyledger', '--sandbox', 'docker', '--base-url', vllm.baseUrl, '--json']);
      expect(JSON.parse(stdout), stderr).toMatchObject({ valid: true, failedCheck: null, turns: 8, exitStatus: 'submitted' });
      expect(code).toBe(0);
      expect(stderr).toContain(`model server: Qwen/Qwen3-8B at ${vllm.baseUrl}: context 32768 tokens (vllm /v1/models max_model_len), ssr's text protocol`);
      expect(stderr.match(/refuses native tool calls/g)).toHaveLength(1);
      const turns = vllm.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { max_tokens: number; tools?: unknown });
      const episode = turns.filter((body) => body.max_tokens !== 1);
      expect(episode).toHaveLength(8);
      // Every turn was sent without tools and asked for no more than the 32k context leaves.
      expect(episode.every((body) => body.tools === undefined && body.max_tokens < 32_768 - 1_000)).toBe(true);
    } finally {
      await vllm.close();
    }
  });
});
