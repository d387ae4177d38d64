import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageIndexAccess } from '../../../src/sandbox/images/package-index.js';

/** A fake HOME with real files: the host's /etc files still count, so tests look only at what they add. */
function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-home-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('packageIndexAccess', () => {
  it('mounts the user pip.conf where pip looks in the container, and the local index it names (its parent for simple/)', () => {
    const wheels = mkdtempSync(join(tmpdir(), 'ssr-wheels-'));
    mkdirSync(join(wheels, 'simple'));
    const dir = home({ '.config/pip/pip.conf': `[global]\n# index-url = https://ignored.example/simple\nindex-url = file://${wheels}/simple\n` });
    const access = packageIndexAccess({ HOME: dir });
    expect(access.binds).toContain(`${dir}/.config/pip/pip.conf:/root/.config/pip/pip.conf:ro`);
    expect(access.binds).toContain(`${wheels}:${wheels}:ro`);
    expect(access.network).toBe('none');
    expect(access.summary).toContain(`${wheels} (mounted read-only)`);
  });

  it('passes PIP_* and proxies to pip, UV_* to uv, and points PIP_CONFIG_FILE at its mounted copy', () => {
    const dir = home({ 'conf/pip.ini': '[global]\ntimeout = 5\n' });
    const access = packageIndexAccess({
      HOME: dir,
      PIP_INDEX_URL: 'https://user:secret@pypi.internal/simple',
      PIP_CONFIG_FILE: join(dir, 'conf/pip.ini'),
      UV_INDEX_URL: 'https://pypi.internal/simple',
      HTTPS_PROXY: 'http://proxy:3128',
      PATH: '/usr/bin',
    });
    expect(access.pipEnv).toEqual({ PIP_INDEX_URL: 'https://user:secret@pypi.internal/simple', HTTPS_PROXY: 'http://proxy:3128', PIP_CONFIG_FILE: '/run/ssr-build/pip.conf' });
    expect(access.uvEnv).toEqual({ UV_INDEX_URL: 'https://pypi.internal/simple', HTTPS_PROXY: 'http://proxy:3128' });
    expect(access.binds).toContain(`${join(dir, 'conf/pip.ini')}:/run/ssr-build/pip.conf:ro`);
    expect(access.network).toBe('host');
    // The credentials of an index URL never reach a log line.
    expect(access.summary).toContain('https://***@pypi.internal/simple');
    expect(access.summary).not.toContain('secret');
  });

  it('mounts files a setting names (constraints) but never a top-level or kernel directory', () => {
    const dir = home({ 'c/constraints.txt': 'six<2\n' });
    const access = packageIndexAccess({ HOME: dir, PIP_CONSTRAINT: join(dir, 'c/constraints.txt'), PIP_FIND_LINKS: '/proc /tmp' });
    expect(access.binds).toContain(`${join(dir, 'c/constraints.txt')}:${join(dir, 'c/constraints.txt')}:ro`);
    expect(access.binds.some((bind) => bind.startsWith('/proc:') || bind.startsWith('/tmp:'))).toBe(false);
  });
});
