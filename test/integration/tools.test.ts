import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxBackend, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { createBashTool, bashTool } from '../../src/tools/bash-tool.js';
import { toolsForRole } from '../../src/tools/registry.js';
import type { Tool, ToolContext, ToolResult } from '../../src/tools/tool.js';
import { bwrapTemplate, dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

// The tools must behave the same on both backends; Docker is the reference.
describe.each<SandboxBackend>(['docker', 'bwrap'])('tools on %s', (backend) => {
  let template: SandboxTemplate;

  beforeAll(async () => {
    const repo = await tinyRepo();
    template = backend === 'docker' ? await dockerTemplate(repo) : await bwrapTemplate(repo);
  });

  /** Run calls of one tool set in one fresh sandbox, in order; returns every result. */
  async function session(calls: [name: string, args: unknown][], options: { timeoutMs?: number; tools?: Tool[] } = {}): Promise<ToolResult[]> {
    const tools = options.tools ?? toolsForRole('solver');
    return withSandbox(template, async (sandbox) => {
      const ctx: ToolContext = { sandbox, role: 'solver', commandTimeoutMs: options.timeoutMs ?? 30_000 };
      const results: ToolResult[] = [];
      for (const [name, args] of calls) {
        const tool = tools.find((t) => t.name === name)!;
        results.push(await tool.run(tool.schema.parse(args), ctx));
      }
      return results;
    });
  }

  const bash = (command: string): [string, unknown] => ['bash', { command }];

  describe('bash', () => {
    it('starts in /repo and keeps cwd and exported variables between calls, even across `exit`', async () => {
      const results = await session([
        bash('pwd'),
        bash('cd tests && export GREETING="hi there" && LOCAL=1'),
        bash('pwd; echo "$GREETING/${LOCAL:-unset}"'),
        bash('cd /tmp; export N=2; exit 3'),
        bash('pwd; echo $N'),
        bash('cd /nonexistent-dir'),
        bash('pwd'),
      ]);
      expect(results.map((r) => r.output)).toEqual([
        '/repo',
        '(no output)',
        '/repo/tests\nhi there/unset',
        '(no output)\n[exit code 3]',
        '/tmp\n2',
        expect.stringMatching(/cd: \/nonexistent-dir: No such file or directory\n\[exit code 1\]$/),
        '/tmp',
      ]);
      expect(results.map((r) => r.isError)).toEqual([false, false, false, true, false, true, false]);
    });

    it('falls back to /repo when the saved cwd was deleted', async () => {
      const results = await session([bash('mkdir /tmp/gone && cd /tmp/gone'), bash('rmdir /tmp/gone'), bash('pwd')]);
      expect(results[2]!.output).toBe('/repo');
    });

    it.runIf(backend === 'docker')("does not carry the engine's own per-exec variables over (the Docker kill marker)", async () => {
      const results = await session([bash('echo $SSR_EXEC'), bash('echo $SSR_EXEC')]);
      expect(results[0]!.output).toMatch(/^[0-9a-f-]{36}$/);
      expect(results[1]!.output).toMatch(/^[0-9a-f-]{36}$/);
      expect(results[1]!.output).not.toBe(results[0]!.output);
    });

    it('says "(no output)" and the exit code when a command fails silently', async () => {
      const [silent, failing, signal] = await session([bash('true'), bash('false'), bash('kill -9 $$')]);
      expect(silent).toEqual({ output: '(no output)', isError: false });
      expect(failing).toEqual({ output: '(no output)\n[exit code 1]', isError: true });
      expect(signal).toEqual({ output: '(no output)\n[exit code 137]', isError: true });
    });

    it('kills a command at the timeout, says so, keeps the output so far, and the shell still works', async () => {
      const started = Date.now();
      const [slow, after] = await session([bash('cd /tmp; echo started; sleep 30'), bash('pwd')], { timeoutMs: 2000 });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(slow!.isError).toBe(true);
      expect(slow!.output).toMatch(/^started\n\[timed out after 2 s: the command was killed and its cd\/export changes were lost\./);
      expect(after!.output).toBe('/repo');
    });

    it('refuses interactive programs without running them', async () => {
      const [vim, check] = await session([bash('touch /tmp/ran && vim calc.py'), bash('ls /tmp/ran 2>&1 || true')]);
      expect(vim).toMatchObject({ isError: true, output: expect.stringMatching(/^Refused to run `vim`: .*`edit`/) });
      expect(check!.output).toMatch(/No such file/);
    });

    it('never waits for a terminal: stdin is empty, pagers and editors are no-ops', async () => {
      const results = await session([
        bash('cat; echo "read: done"'),
        bash('git log --format=%s'),
        bash('git -c user.name=t -c user.email=t@t commit -q --allow-empty --amend && git log -1 --format=%s'),
        bash("python3 - <<'EOF'\nprint(sum(range(5)))\nEOF"),
      ]);
      expect(results.map((r) => r.output)).toEqual(['read: done', 'test add\nadd', 'test add', '10']);
    });

    it('cuts long output in the middle with a note', async () => {
      const small = createBashTool({ maxOutputBytes: 1000 });
      const [result] = await session([bash('seq 1 100000')], { tools: [small] });
      const output = result!.output;
      expect(output.startsWith('1\n2\n3\n')).toBe(true);
      expect(output.endsWith('99999\n100000')).toBe(true);
      expect(output).toMatch(/\n\[\.\.\. [\d,]+ bytes cut from the middle of 588,895 bytes of output; narrow the command/);
      expect(Buffer.byteLength(output)).toBeLessThan(1300);
    });

    it('keeps a large command intact (it travels on stdin, not argv)', async () => {
      const payload = 'x'.repeat(300_000);
      const [result] = await session([bash(`s='${payload}'; echo \${#s}`)], { tools: [bashTool] });
      expect(result!.output).toBe('300000');
    });
  });

  describe('edit, create and submit on the repository', () => {
    it('change the code, then submit a diff the harness reads itself', async () => {
      const [edit, create, diff, submit] = await session([
        ['edit', { path: 'calc.py', search: '    return a + b', replace: '    return a - b' }],
        ['create', { path: 'notes/todo.txt', content: 'x' }],
        bash('git diff > /ssr/pred_patch.diff && git diff --stat'),
        ['submit', { patch: '/ssr/pred_patch.diff' }],
      ]);
      expect(edit).toEqual({ isError: false, output: 'Edited /repo/calc.py: replaced 1 line(s) with 1 at line 2.\n1\tdef add(a, b):\n2\t    return a - b' });
      expect(create).toMatchObject({ isError: true, output: expect.stringContaining('directory /repo/notes does not exist') });
      expect(diff!.output).toBe(' calc.py | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)');
      expect(submit!.submission).toEqual({
        type: 'solver',
        patch: expect.stringContaining('-    return a + b\n+    return a - b\n'),
      });
    });
  });
});
