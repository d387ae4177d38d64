import { execFileSync } from 'node:child_process';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../src/agent/agent-limits.js';
import { runAgent } from '../../src/agent/run-agent.js';
import { parseTestFilesList } from '../../src/artifact/test-files-list.js';
import { resolveRepo } from '../../src/config/resolve-repo.js';
import { injectorPrompts } from '../../src/roles/role-prompts.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import { BaselineCache } from '../../src/validator/baseline-cache.js';
import { validateArtifact } from '../../src/validator/validate-artifact.js';
import { PAGE_BYTES, readTextFile } from '../../src/policy/procedural/injector/read-text-file.js';
import { readTextFiles } from '../../src/policy/procedural/injector/read-text-files.js';
import type { Program } from '../../src/policy/procedural/program.js';
import { ProceduralPolicy } from '../../src/policy/procedural/procedural-policy.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { bashTool } from '../../src/tools/bash-tool.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { toolsForRole } from '../../src/tools/registry.js';
import { dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';
import { ROOT } from './selfplay-helpers.js';

/**
 * A ~100 kB test file of a few very long lines (generated data with non-ASCII characters), as
 * real libraries ship: the procedural Injector must read it exactly through the real bash tool,
 * and a model's plain `cat` must be told which command shows the next page.
 */
function bigFile(): string {
  const row = (i: number): string => `    assert parse(${JSON.stringify(`é${'x'.repeat(40)}ß`.repeat(1 + (i % 3)))}) == ${i}\n`;
  const head = 'import json\n\n\ndef test_table():\n' + Array.from({ length: 40 }, (_, i) => row(i)).join('');
  const long = `DATA = ${JSON.stringify(Array.from({ length: 3000 }, (_, i) => `ü${i}`.padEnd(14, '.')))}\n`;
  // Two lines longer than the tool's 16 KiB cap, and no newline at the very end.
  return `${head}${long}${long.replace('DATA', 'MORE')}# end without newline`;
}

describe('reading a ~100 kB file of long lines in a real Docker sandbox', () => {
  let template: SandboxTemplate;
  const content = bigFile();

  beforeAll(async () => {
    template = await dockerTemplate(await tinyRepo());
  });

  it('the procedural Injector reads it exactly, page by page, and small files several to a call', async () => {
    expect(Buffer.byteLength(content)).toBeGreaterThan(90_000);
    // Small files whose contents look like the batch's own markers, end without a newline, or are empty.
    const small: Record<string, string> = {
      'tests/a b.py': '@@FILE 3 x.py\nabc\n@@END\n',
      'tests/ü.py': 'naïve = "ß"\n\n',
      'tests/empty.py': '',
      'tests/last.py': 'x = 1',
    };
    let read: string | null | undefined;
    let batch: Map<string, string | null> | undefined;
    let program = async function* (): Program {
      read = yield* readTextFile('tests/test_big.py', 'Read the big test file.');
      return 'done';
    };
    await withSandbox(template, async (sandbox) => {
      await sandbox.writeFile('/repo/tests/test_big.py', content);
      for (const [path, text] of Object.entries(small)) await sandbox.writeFile(`/repo/${path}`, text);
      const play = async () => (await runAgent({
        policy: new ProceduralPolicy({ programs: { injector: program } }), sandbox, role: 'injector', systemPrompt: 's', userPrompt: 'u',
        tools: toolsForRole('injector'), episodeId: 'read-big', seed: 0,
      })).turns;
      const turnsBefore = await play();
      // A page per PAGE_BYTES (one more where pages back off to character boundaries), and the closing turn.
      const pages = Math.ceil(Buffer.byteLength(content) / PAGE_BYTES);
      expect(turnsBefore).toBeGreaterThanOrEqual(pages + 1);
      expect(turnsBefore).toBeLessThanOrEqual(pages + 2);
      const files = [...Object.entries(small).map(([path, text]) => ({ path, bytes: Buffer.byteLength(text) })), { path: 'tests/none.py', bytes: 10 }];
      program = async function* (): Program {
        batch = yield* readTextFiles(files, () => 'Read the small files.');
        return 'done';
      };
      // One call for the five (and the closing turn).
      expect(await play()).toBe(2);
    });
    expect(read === content, `read ${read?.length ?? 'null'} of ${content.length} characters`).toBe(true);
    expect(Object.fromEntries(batch ?? [])).toEqual({ ...small, 'tests/none.py': null });
  }, 120_000);

  it("a model's cat is cut with a note naming the command of the next page, which shows what follows", async () => {
    await withSandbox(template, async (sandbox) => {
      await sandbox.writeFile('/repo/tests/test_big.py', content);
      const ctx: ToolContext = { sandbox, role: 'solver', commandTimeoutMs: 30_000 };
      const first = (await bashTool.run({ command: 'cat tests/test_big.py' }, ctx)).output;
      const next = /next page[^:]*: (.*) \.\.\.\]/.exec(first);
      expect(next, first.slice(0, 300)).not.toBeNull();
      const head = first.split('\n[... ')[0]!;
      const page = (await bashTool.run({ command: next![1]! }, ctx)).output;
      // The page continues exactly where the shown head stopped.
      const rest = content.slice(head.length).replace(/^\n/, '');
      expect(rest.startsWith(page.split('\n[... ')[0]!.slice(0, 2000)), page.slice(0, 200)).toBe(true);
    });
  }, 120_000);
});

/**
 * pyledger with a ~60 kB one-line fixture appended to every test file, as generated test data
 * often is: the removal strategy must read the failing tests' file to weaken it, and used to give
 * up there ("could not read …").
 */
describe('procedural Injector on pyledger whose test files hold very long lines (real Docker, real validator)', () => {
  let root: string;

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('injects a removal bug, weakens a long-line test file, and the validator accepts it', async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-long-lines-'));
    const dir = join(root, 'pyledger');
    execFileSync('git', ['clone', '-q', join(ROOT, 'examples', 'pyledger.bundle'), dir]);
    const fixture = `_FIXTURE = ${JSON.stringify(Array.from({ length: 4000 }, (_, i) => `ë${i}`.padEnd(12, '·')).join(''))}\n`;
    expect(Buffer.byteLength(fixture)).toBeGreaterThan(50_000);
    for (const name of await readdir(join(dir, 'tests'))) if (name.startsWith('test_')) await appendFile(join(dir, 'tests', name), `\n\n${fixture}`);
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-am', 'Add generated fixtures']);
    const repo = await resolveRepo(dir, undefined);
    const template = await dockerTemplate(repo);
    const provider = createProvider('docker');
    const limits = agentLimitsSchema.parse({});
    const prompts = injectorPrompts('removal', { thresholds: repo.thresholds, testTimeoutMs: 90_000 }, limits);
    const sandbox = await provider.acquire(template);
    let summary = '';
    let exit;
    try {
      exit = await runAgent({
        policy: new ProceduralPolicy({ seed: 2 }), sandbox, role: 'injector', ...prompts, tools: toolsForRole('injector'), limits, episodeId: 'long-lines', seed: 2,
        trajectory: { write: async (record) => void (record.type === 'step' && record.toolCall === undefined && (summary = record.assistant.content)) },
      });
    } finally {
      await sandbox.dispose();
    }
    expect(exit.exitStatus, summary).toBe('submitted');
    const submission = exit.submission!;
    if (submission.type !== 'injector') throw new Error('not an injector submission');
    // The weakened file is one of the long-line ones, and its fixture came through the pages intact.
    expect(submission.testWeaken).toMatch(/^--- a\/tests\/test_\w+\.py$/m);
    expect(submission.testWeaken).not.toContain('_FIXTURE');
    const artifact = {
      bugInject: submission.bugInject, testWeaken: submission.testWeaken, testFiles: parseTestFilesList(submission.testFiles).files,
      testScript: submission.testScript, testParser: submission.testParser,
    };
    const result = await validateArtifact(artifact, { repo, template, provider, queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache() });
    expect({ valid: result.valid, failedCheck: result.failedCheck }, JSON.stringify(result.checks.at(-1))).toEqual({ valid: true, failedCheck: null });
  }, 600_000);
});
