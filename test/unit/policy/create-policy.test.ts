import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addPolicyOptions } from '../../../src/cli/policy-options.js';
import { createPolicy, resolveDefaultPolicy, type PolicyFlags } from '../../../src/policy/create-policy.js';
import { OpenAIPolicy } from '../../../src/policy/openai-policy.js';
import { TokensPolicy } from '../../../src/policy/tokens-policy.js';
import { ScriptedPolicy } from '../../../src/policy/scripted-policy.js';
import { EngineError, isEngineError } from '../../../src/util/engine-error.js';

describe('resolveDefaultPolicy', () => {
  it.each<[string, PolicyFlags, Record<string, string>, string]>([
    ['nothing configured → procedural', {}, {}, 'procedural'],
    ['blank env → procedural', {}, { OPENAI_BASE_URL: '' }, 'procedural'],
    ['--base-url → openai', { baseUrl: 'http://h' }, {}, 'openai'],
    ['OPENAI_BASE_URL → openai', {}, { OPENAI_BASE_URL: 'http://h' }, 'openai'],
    ['--policy wins', { policy: 'tokens' }, {}, 'tokens'],
    ['--policy procedural despite an endpoint', { policy: 'procedural' }, { OPENAI_BASE_URL: 'http://h' }, 'procedural'],
  ])('%s', (_case, flags, env, expected) => {
    expect(resolveDefaultPolicy(flags, env)).toBe(expected);
  });
});

describe('createPolicy', () => {
  it.each([
    ['openai', OpenAIPolicy, 'openai:m'],
    ['tokens', TokensPolicy, 'tokens:m'],
  ] as const)('builds the %s policy', async (policy, type, name) => {
    const created = await createPolicy({ policy, baseUrl: 'http://127.0.0.1:1/v1', model: 'm', env: {}, preflight: false });
    expect(created).toBeInstanceOf(type);
    expect(created.name).toBe(name);
  });

  it('passes top-k and the sampler log-probs mode to the tokens policy, which refuses top-k with raw log-probs', async () => {
    const base = { policy: 'tokens', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', env: {} } as const;
    await expect(createPolicy({ ...base, topK: 20 })).rejects.toThrow(/samples at temperature 1, top-p 1 and no top-k \(got temperature 1, top-p 1, top-k 20\)/);
    await expect(createPolicy({ ...base, topK: 20, samplerLogprobs: 'processed', preflight: false })).resolves.toBeInstanceOf(TokensPolicy);
  });

  it('rejects an HTTP policy without an endpoint as a usage error', async () => {
    await expect(createPolicy({ policy: 'openai', env: {} })).rejects.toThrow(new EngineError('usage', 'no model endpoint: pass --base-url or set OPENAI_BASE_URL'));
  });

  it('builds the procedural policy, or says clearly that this build lacks it', async () => {
    const outcome = await createPolicy({ policy: 'procedural', seed: 3, env: {} }).catch((error: unknown) => error);
    if (isEngineError(outcome)) {
      expect(outcome.code).toBe('usage');
      expect(outcome.message).toBe('the procedural policy is not available in this build');
    } else {
      expect((outcome as { name: string }).name).toMatch(/procedural/);
    }
  });

  it('builds a scripted policy from steps or from a script file', async () => {
    expect(await createPolicy({ policy: 'scripted', scriptedSteps: [], env: {} })).toBeInstanceOf(ScriptedPolicy);
    const dir = await mkdtemp(join(tmpdir(), 'ssr-script-'));
    const file = join(dir, 'script.json');
    await writeFile(file, JSON.stringify([{ text: '<tool: bash>\nls\n</tool>' }, { toolCall: { name: 'submit', arguments: {} } }]));
    const policy = await createPolicy({ policy: 'scripted', policyScript: file, env: {} });
    const turn = await policy.complete({ episodeId: 'e', role: 'solver', messages: [], tools: [] });
    expect(turn.toolCalls[0]).toMatchObject({ name: 'bash', arguments: { command: 'ls' } });
  });

  it.each<[string, string | undefined, string]>([
    ['no script', undefined, '--policy scripted needs --policy-script <file>'],
    ['missing file', '/nonexistent/script.json', 'ENOENT'],
  ])('scripted: usage error for %s', async (_case, policyScript, fragment) => {
    const error = await createPolicy({ policy: 'scripted', policyScript, env: {} }).catch((e: unknown) => e);
    expect(isEngineError(error) && error.code).toBe('usage');
    expect((error as Error).message).toContain(fragment);
  });

  it('scripted: usage error for a script of the wrong shape', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssr-script-'));
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify([{ tool: 'bash' }]));
    await expect(createPolicy({ policy: 'scripted', policyScript: file, env: {} })).rejects.toThrow(/--policy-script .*bad\.json/);
  });
});

describe('addPolicyOptions', () => {
  function parse(argv: string[]): PolicyFlags {
    const command = addPolicyOptions(new Command('x').exitOverride().configureOutput({ writeErr: () => {} }));
    command.parse(argv, { from: 'user' });
    return command.opts<PolicyFlags>();
  }

  it('parses every flag into PolicyFlags', () => {
    const argv = ['--policy', 'tokens', '--base-url', 'http://h/v1', '--model', 'm', '--api-key', 'k', '--temperature', '0.7', '--top-p', '0.95', '--top-k', '20'];
    argv.push('--sampler-logprobs', 'processed', '--max-tokens', '2048', '--seed', '-3');
    const more = ['--tool-protocol', 'text', '--tool-parser', 'qwen3_coder', '--max-context', '32768'];
    expect(parse([...argv, ...more])).toEqual({
      policy: 'tokens', baseUrl: 'http://h/v1', model: 'm', apiKey: 'k', temperature: 0.7, topP: 0.95, topK: 20, samplerLogprobs: 'processed', maxTokens: 2048, seed: -3,
      toolProtocol: 'text', toolParser: 'qwen3_coder', maxContext: 32768,
    });
  });

  it("tells the preflight how long a role's first prompt is, when a command runs", async () => {
    let seen: PolicyFlags = {};
    const command = addPolicyOptions(new Command('x').exitOverride()).action((flags: PolicyFlags) => void (seen = flags));
    await command.parseAsync([], { from: 'user' });
    // The shortest first prompt (system + Solver template + tool schemas) is over a thousand tokens.
    expect(seen.promptTokens).toBeGreaterThan(1_000);
    expect(seen.promptTokens).toBeLessThan(10_000);
  });

  it('leaves unset flags undefined (defaults are resolved later)', () => {
    expect(parse([])).toEqual({});
  });

  it.each<[string[], string]>([
    [['--temperature', '-1'], '--temperature: expected a number ≥ 0, got "-1"'],
    [['--top-p', '0'], '--top-p: expected a number in (0, 1], got "0"'],
    [['--top-p', '1.5'], '--top-p: expected a number in (0, 1]'],
    [['--max-tokens', '0'], '--max-tokens: expected a positive integer'],
    [['--seed', '1.5'], '--seed: expected an integer, got "1.5"'],
    [['--top-k', '0'], '--top-k: expected a positive integer'],
    [['--sampler-logprobs', 'logits'], 'Allowed choices are raw, processed'],
    [['--max-context', '0'], '--max-context: expected a positive integer'],
    [['--tool-protocol', 'xml'], 'Allowed choices are native, text, auto'],
    [['--tool-parser', 'gpt'], 'Allowed choices are cwm, hermes, qwen3_coder, llama3_json, mistral'],
  ])('rejects %j', (argv, message) => {
    expect(() => parse(argv)).toThrow(message);
  });

  it('rejects an unknown --policy', () => {
    expect(() => parse(['--policy', 'magic'])).toThrow(/Allowed choices are openai, tokens, procedural, scripted/);
  });

  it('documents the flags in --help', () => {
    const help = addPolicyOptions(new Command('x')).helpInformation();
    const flags = ['--policy <kind>', '--base-url <url>', '--model <name>', '--api-key <key>', '--temperature <t>', '--top-p <p>', '--top-k <k>', '--sampler-logprobs <mode>', '--max-tokens <n>', '--seed <n>'];
    for (const flag of [...flags, '--tool-protocol <mode>', '--tool-parser <format>', '--max-context <n>']) {
      expect(help).toContain(flag);
    }
    expect(help).not.toMatch(/^\s+--policy-script <file>/m);
  });
});
