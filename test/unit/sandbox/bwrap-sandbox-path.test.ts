import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSandboxPath, type SandboxMounts } from '../../../src/sandbox/bwrap/sandbox-path.js';
import { EngineError } from '../../../src/util/engine-error.js';

describe('resolveSandboxPath', () => {
  let root: string;
  let mounts: SandboxMounts;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ssr-sandbox-path-'));
    mounts = { repo: join(root, 'repo'), scratch: join(root, 'ssr'), tmp: join(root, 'tmp'), home: join(root, 'home') };
    mkdirSync(join(mounts.repo, 'pkg'), { recursive: true });
    for (const dir of [mounts.scratch, mounts.tmp, mounts.home]) mkdirSync(dir);
    writeFileSync(join(mounts.tmp, 'made-by-a-command'), 'tmp\n');
    writeFileSync(join(mounts.repo, 'pkg', 'mod.py'), 'x = 1\n');
    writeFileSync(join(mounts.scratch, 'log.txt'), 'log\n');
    writeFileSync(join(root, 'host-secret'), 'secret\n');
    const links: [string, string][] = [
      ['rel', 'pkg/mod.py'],
      ['abs', '/repo/pkg/mod.py'],
      ['to-ssr', '/ssr/log.txt'],
      ['pkg-dir', 'pkg'],
      ['to-host', join(root, 'host-secret')],
      ['to-etc', '/etc'],
      ['climb', '../../../../host-secret'],
      ['to-missing', '/repo/new/file.txt'],
      ['to-missing-outside', '/etc/new'],
      ['to-tmp', '/tmp/made-by-a-command'],
      ['loop-a', 'loop-b'],
      ['loop-b', 'loop-a'],
    ];
    for (const [name, target] of links) symlinkSync(target, join(mounts.repo, name));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each<[string, string, string, boolean]>([
    ['a relative path', 'pkg/mod.py', '/repo/pkg/mod.py', true],
    ['an absolute /repo path', '/repo/pkg/mod.py', '/repo/pkg/mod.py', true],
    ['a /ssr path', '/ssr/log.txt', '/ssr/log.txt', true],
    ['dots that stay inside', '/repo/pkg/../pkg/./mod.py', '/repo/pkg/mod.py', true],
    ['dots that cross mounts', '/repo/../ssr/log.txt', '/ssr/log.txt', true],
    ['a relative link', 'rel', '/repo/pkg/mod.py', true],
    ['an absolute link inside /repo', 'abs', '/repo/pkg/mod.py', true],
    ['a link into /ssr', 'to-ssr', '/ssr/log.txt', true],
    ['a link to a directory, then a name', 'pkg-dir/mod.py', '/repo/pkg/mod.py', true],
    ['a missing file', 'pkg/new.py', '/repo/pkg/new.py', false],
    ['missing directories', 'a/b/c.txt', '/repo/a/b/c.txt', false],
    ['a dangling link whose target is inside', 'to-missing', '/repo/new/file.txt', false],
    ['the mount itself', '/repo', '/repo', true],
    ['".." after a link, from the link target', 'pkg-dir/../rel', '/repo/pkg/mod.py', true],
    ['a /tmp path', '/tmp/made-by-a-command', '/tmp/made-by-a-command', true],
    ['a link into /tmp', 'to-tmp', '/tmp/made-by-a-command', true],
    ['a new file in the home directory', '/root/.config/x', '/root/.config/x', false],
  ])('resolves %s', async (_name, path, sandboxPath, exists) => {
    const resolved = await resolveSandboxPath(path, mounts);
    expect(resolved).toMatchObject({ sandboxPath, exists });
    const hosts: [string, string][] = [['/ssr', mounts.scratch], ['/tmp', mounts.tmp], ['/root', mounts.home], ['/repo', mounts.repo]];
    const [prefix, hostRoot] = hosts.find(([top]) => sandboxPath.startsWith(top))!;
    expect(resolved.hostPath).toBe(sandboxPath.replace(prefix, hostRoot));
  });

  it('reads a link to a host file as a sandbox path: refused, or a file of the sandbox, never the host file', async () => {
    // The host's temp dir usually lies under /tmp: inside the sandbox that is the sandbox's own /tmp.
    const outcome = await resolveSandboxPath('to-host', mounts).then(
      (resolved) => resolved.hostPath,
      (error: unknown) => (error as EngineError).code,
    );
    const inSandbox = [mounts.repo, mounts.scratch, mounts.tmp, mounts.home].some((dir) => outcome.startsWith(`${dir}/`));
    expect(outcome === 'usage' || inSandbox, outcome).toBe(true);
  });

  it.each<[string, string, string, RegExp]>([
    ['a rootfs directory through a link', 'to-etc/passwd', 'usage', /resolves to \/etc/],
    ['".." after a link out of the mounts', 'to-etc/../repo/rel', 'usage', /resolves to \/etc/],
    ['a link climbing above /', 'climb', 'usage', /resolves to \/host-secret/],
    ['a path climbing out of /repo', '../../host-secret', 'usage', /addressable/],
    ['a rootfs path', '/etc/passwd', 'usage', /only \/repo, \/ssr, \/tmp and \/root/],
    ['a dangling link pointing outside', 'to-missing-outside', 'usage', /resolves to \/etc;/],
    ['a link loop', 'loop-a', 'usage', /too many levels/],
    ['a file used as a directory', 'pkg/mod.py/x', 'sandbox-failed', /not a directory/],
    ['".." after a missing directory', 'missing/../pkg/mod.py', 'usage', /missing directory/],
    ['a NUL byte', 'a\0b', 'usage', /invalid sandbox path/],
  ])('refuses %s', async (_name, path, code, message) => {
    const error = await resolveSandboxPath(path, mounts).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe(code);
    expect((error as EngineError).message).toMatch(message);
  });
});
