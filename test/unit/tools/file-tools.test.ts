import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { createTool } from '../../../src/tools/create-tool.js';
import { editTool } from '../../../src/tools/edit-tool.js';
import { injectorSubmitTool, solverSubmitTool } from '../../../src/tools/submit-tool.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { dockerTemplate, tinyRepo } from '../../helpers/sandboxes.js';

// One real sandbox for the whole file: every case works on its own paths.
let sandbox: Sandbox;
let ctx: ToolContext;

beforeAll(async () => {
  sandbox = await createProvider('docker').acquire(await dockerTemplate(await tinyRepo()));
  ctx = { sandbox, role: 'solver', commandTimeoutMs: 30_000 };
  // Fixtures every case may read; each case that changes a file makes its own copy first.
  const setup = await sandbox.exec(
    [
      'mkdir -p /ssr/fx/dir',
      "printf 'def f():\\n    return 1\\n\\n\\ndef g():\\n    return 1\\n' > /ssr/fx/twice.py",
      "printf 'a\\x00b\\xff\\n' > /ssr/fx/binary.bin",
      'ln -s /nowhere /ssr/fx/dangling',
      'printf "diff --git a/x b/x\\n" > /ssr/fx/patch.diff',
      ': > /ssr/fx/empty.diff',
    ].join(' && '),
  );
  expect(setup.exitCode, setup.output).toBe(0);
});

afterAll(async () => {
  await sandbox?.dispose();
});

async function shell(command: string): Promise<string> {
  const result = await sandbox.exec(command);
  expect(result.exitCode, result.output).toBe(0);
  return result.output;
}

describe('edit', () => {
  it.each<[string, { path: string; search: string; replace: string }, RegExp]>([
    ['missing file', { path: '/ssr/fx/none.py', search: 'x', replace: 'y' }, /^Cannot edit \/ssr\/fx\/none\.py: it does not exist\. Use `create`/],
    ['a directory', { path: '/ssr/fx/dir', search: 'x', replace: 'y' }, /it is a directory/],
    ['a dangling symlink', { path: '/ssr/fx/dangling', search: 'x', replace: 'y' }, /it is a symlink to nothing/],
    ['a binary file', { path: '/ssr/fx/binary.bin', search: 'a', replace: 'b' }, /it is not UTF-8 text/],
    ['empty search', { path: '/ssr/fx/twice.py', search: '', replace: 'y' }, /`search` is empty/],
    ['replace equals search', { path: '/ssr/fx/twice.py', search: 'def f():', replace: 'def f():\n' }, /identical to `search`/],
    ['several matches', { path: '/ssr/fx/twice.py', search: '    return 1', replace: '    return 2' }, /matches 2 times in \/ssr\/fx\/twice\.py \(starting at lines 2, 6\)/],
    ['whitespace differs', { path: '/ssr/fx/twice.py', search: 'def g():\n  return 1', replace: 'x' }, /No match .*whitespace is ignored at lines 5\.\.6; copy the exact indentation/],
    ['part of a line', { path: '/ssr/fx/twice.py', search: 'return', replace: 'x' }, /not as whole lines/],
    ['a relative path that is missing', { path: 'nope/x.py', search: 'x', replace: 'y' }, /Cannot edit \/repo\/nope\/x\.py: it does not exist/],
  ])('%s is an error result, the file untouched', async (_name, args, message) => {
    const before = await shell('md5sum /ssr/fx/twice.py');
    const result = await editTool.run(args, ctx);
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toMatch(message);
    expect(result.submission).toBeUndefined();
    expect(await shell('md5sum /ssr/fx/twice.py')).toBe(before);
  });

  it('edits in place, keeping the mode and the symlink, and shows a numbered snippet', async () => {
    await shell('cp /ssr/fx/twice.py /ssr/fx/edit-me.py && chmod 751 /ssr/fx/edit-me.py && ln -s edit-me.py /ssr/fx/link.py');
    const result = await editTool.run({ path: '/ssr/fx/link.py', search: 'def g():\n    return 1', replace: 'def g():\n    return 2\n' }, ctx);
    expect(result).toEqual({
      isError: false,
      output: 'Edited /ssr/fx/link.py: replaced 2 line(s) with 2 at line 5.\n1\tdef f():\n2\t    return 1\n3\t\n4\t\n5\tdef g():\n6\t    return 2',
    });
    expect(await shell('cat /ssr/fx/edit-me.py')).toBe('def f():\n    return 1\n\n\ndef g():\n    return 2\n');
    expect(await shell('stat -c %a /ssr/fx/edit-me.py; test -L /ssr/fx/link.py && echo link')).toBe('751\nlink\n');
  });
});

describe('create', () => {
  it.each<[string, string, RegExp]>([
    ['an existing file', '/ssr/fx/twice.py', /^Cannot create \/ssr\/fx\/twice\.py: it already exists\. Use `edit`/],
    ['an existing directory', '/ssr/fx/dir', /it already exists/],
    ['a dangling symlink', '/ssr/fx/dangling', /it already exists/],
    ['a missing parent', '/ssr/fx/no/such/dir/x.py', /directory \/ssr\/fx\/no\/such\/dir does not exist\. Create it first \(`mkdir -p/],
    ['a parent that is a file', '/ssr/fx/twice.py/x.py', /directory \/ssr\/fx\/twice\.py does not exist/],
  ])('refuses %s', async (_name, path, message) => {
    // Not `ls -la`: its `..` is /ssr, where each exec with stdin leaves and removes a scratch file,
    // so its minute-resolution mtime moved whenever a run crossed a minute boundary.
    const before = await shell('find /ssr/fx | sort | xargs md5sum 2>/dev/null; ls -lA --time-style=full-iso /ssr/fx; stat -c %y /ssr/fx');
    const result = await createTool.run({ path, content: 'new\n' }, ctx);
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toMatch(message);
    expect(await shell('find /ssr/fx | sort | xargs md5sum 2>/dev/null; ls -lA --time-style=full-iso /ssr/fx; stat -c %y /ssr/fx')).toBe(before);
  });

  it.each<[string, string, string, string]>([
    ['relative to /repo', 'new_module.py', '/repo/new_module.py', 'x = 1\n'],
    ['absolute, no final newline', '/ssr/fx/dir/notes.txt', '/ssr/fx/dir/notes.txt', 'a\nb'],
    ['empty', '/ssr/fx/dir/empty.txt', '/ssr/fx/dir/empty.txt', ''],
    ["quotes and $ in the name", "/ssr/fx/dir/it's $HOME.txt", "/ssr/fx/dir/it's $HOME.txt", '$(rm -rf /)\n'],
  ])('creates a file %s, byte for byte', async (_name, path, absolute, content) => {
    const result = await createTool.run({ path, content }, ctx);
    expect(result).toMatchObject({ isError: false });
    expect(result.output).toMatch(new RegExp(`^Created ${absolute.replace(/[$.]/g, '\\$&')} \\(\\d+ line\\(s\\)\\)\\.$`));
    expect((await sandbox.readFile(absolute)).toString('utf8')).toBe(content);
  });
});

describe('submit', () => {
  const injectorArgs = {
    bug_inject: '/ssr/fx/patch.diff',
    test_weaken: '/ssr/fx/patch.diff',
    test_files: 'tests/test_calc.py',
    test_script: '/ssr/fx/patch.diff',
    test_parser: 'calc.py',
  };

  it('reads the injector files itself and records their contents', async () => {
    const result = await injectorSubmitTool.run(injectorArgs, { ...ctx, role: 'injector' });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^Submission recorded\.\nYou may call `submit` again/);
    expect(result.submission).toEqual({
      type: 'injector',
      bugInject: 'diff --git a/x b/x\n',
      testWeaken: 'diff --git a/x b/x\n',
      testFiles: 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
      testScript: 'diff --git a/x b/x\n',
      testParser: 'def add(a, b):\n    return a + b\n',
    });
  });

  it.each<[string, Partial<typeof injectorArgs>, string[]]>([
    ['one missing', { test_parser: '/ssr/fx/parser.py' }, ['test_parser: /ssr/fx/parser.py does not exist']],
    [
      'several bad',
      { bug_inject: 'bug.diff', test_files: '/ssr/fx/dir', test_script: '/ssr/fx/dangling' },
      ['bug_inject: /repo/bug.diff does not exist', 'test_files: /ssr/fx/dir is a directory', 'test_script: /ssr/fx/dangling is a symlink to nothing'],
    ],
  ])('injector: %s → an error naming every bad path, nothing submitted', async (_name, overrides, problems) => {
    const result = await injectorSubmitTool.run({ ...injectorArgs, ...overrides }, { ...ctx, role: 'injector' });
    expect(result).toEqual({ isError: true, output: `Nothing submitted; fix these paths and call submit again:\n${problems.join('\n')}` });
  });

  it.each<[string, string, object]>([
    ['a patch', '/ssr/fx/patch.diff', { isError: false, submission: { type: 'solver', patch: 'diff --git a/x b/x\n' } }],
    ['an empty patch (accepted, with a warning)', '/ssr/fx/empty.diff', { isError: false, submission: { type: 'solver', patch: '' } }],
    ['a missing patch', '/ssr/pred_patch.diff', { isError: true, output: 'Nothing submitted; fix these paths and call submit again:\npatch: /ssr/pred_patch.diff does not exist' }],
  ])('solver: %s', async (name, patch, expected) => {
    const result = await solverSubmitTool.run({ patch }, ctx);
    expect(result).toMatchObject(expected);
    if (name.includes('empty')) expect(result.output).toContain('Warning: empty file(s): patch.');
  });
});

describe('infrastructure failures escape as EngineError', () => {
  it.each([
    ['edit', () => editTool.run({ path: 'calc.py', search: 'a', replace: 'b' }, deadCtx)],
    ['create', () => createTool.run({ path: 'x.py', content: '' }, deadCtx)],
    ['submit', () => solverSubmitTool.run({ patch: 'x.diff' }, deadCtx)],
  ])('%s on a disposed sandbox', async (_name, run) => {
    await expect(run()).rejects.toBeInstanceOf(EngineError);
  });
});

// A sandbox that is already gone: every call on it must throw, not become a tool result.
let deadCtx: ToolContext;
beforeAll(async () => {
  const dead = await createProvider('docker').acquire(await dockerTemplate(await tinyRepo()));
  await dead.dispose();
  deadCtx = { sandbox: dead, role: 'solver', commandTimeoutMs: 30_000 };
});
