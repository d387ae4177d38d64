import { beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { readTextFile } from '../../src/policy/procedural/injector/read-text-file.js';
import type { Program } from '../../src/policy/procedural/program.js';
import { ProceduralPolicy } from '../../src/policy/procedural/procedural-policy.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { bashTool } from '../../src/tools/bash-tool.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { toolsForRole } from '../../src/tools/registry.js';
import { dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

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

  it('the procedural Injector reads it exactly, page by page', async () => {
    expect(Buffer.byteLength(content)).toBeGreaterThan(90_000);
    let read: string | null | undefined;
    async function* program(): Program {
      read = yield* readTextFile('tests/test_big.py', 'Read the big test file.');
      return 'done';
    }
    await withSandbox(template, async (sandbox) => {
      await sandbox.writeFile('/repo/tests/test_big.py', content);
      const exit = await runAgent({
        policy: new ProceduralPolicy({ programs: { injector: program } }), sandbox, role: 'injector', systemPrompt: 's', userPrompt: 'u',
        tools: toolsForRole('injector'), episodeId: 'read-big', seed: 0,
      });
      expect(exit.turns).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(content) / 12_000));
    });
    expect(read === content, `read ${read?.length ?? 'null'} of ${content.length} characters`).toBe(true);
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
