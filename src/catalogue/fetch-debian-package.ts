import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../sandbox/images/run-process.js';
import { EngineError } from '../util/engine-error.js';

/** apt's file name of a version: an epoch's ":" is written "%3a". */
function debPrefix(pkg: string, version: string): string {
  return `${pkg}_${version.replace(/:/g, '%3a')}_`;
}

/** The cached .deb of `pkg` at `version` in `cacheDir`, if one is there. */
export function cachedDeb(cacheDir: string, pkg: string, version: string): string | undefined {
  if (!existsSync(cacheDir)) return undefined;
  const prefix = debPrefix(pkg, version);
  const name = readdirSync(cacheDir).find((file) => file.startsWith(prefix) && file.endsWith('.deb'));
  return name === undefined ? undefined : join(cacheDir, name);
}

/**
 * The .deb of `pkg=version`: from the cache, else `apt-get download` from this machine's apt
 * sources into the cache (so a second run needs no network).
 * @throws EngineError `config-invalid` naming the package and the fix when apt cannot get it.
 */
export async function fetchDebianPackage(cacheDir: string, pkg: string, version: string): Promise<{ deb: string; downloaded: boolean }> {
  const cached = cachedDeb(cacheDir, pkg, version);
  if (cached) return { deb: cached, downloaded: false };
  await mkdir(cacheDir, { recursive: true });
  const result = await runProcess('apt-get', ['download', '-q', `${pkg}=${version}`], { cwd: cacheDir, env: { ...process.env, LC_ALL: 'C' } });
  const deb = cachedDeb(cacheDir, pkg, version);
  if (result.exitCode !== 0 || deb === undefined) {
    const why = result.tail.split('\n').filter((line) => line.startsWith('E:')).join(' ') || result.tail.trim().split('\n').slice(-2).join(' ');
    throw new EngineError(
      'config-invalid',
      `${pkg}=${version} is not available from this machine's apt sources (${why || `apt-get exited ${result.exitCode}`}): ` +
        `run apt-get update, check the version with \`apt-cache policy ${pkg}\`, or copy the .deb into ${cacheDir}`,
    );
  }
  return { deb, downloaded: true };
}

/** `dpkg-deb -x deb dir`. @throws EngineError `config-invalid` when the archive is broken. */
export async function extractDeb(deb: string, dir: string): Promise<void> {
  const result = await runProcess('dpkg-deb', ['-x', deb, dir]);
  if (result.exitCode !== 0) throw new EngineError('config-invalid', `dpkg-deb -x ${deb} failed: ${result.tail.trim()}`);
}
