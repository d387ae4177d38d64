import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../sandbox/images/run-process.js';
import { EngineError } from '../util/engine-error.js';

/** npm's file name of a packed tarball: `qs-6.14.0.tgz`, `scope-name-1.0.0.tgz` for `@scope/name`. */
export function npmTarballName(pkg: string, version: string): string {
  return `${pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** The `sha512-…` integrity of a file, as npm writes it. */
export function fileIntegrity(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/**
 * The tarball of `pkg@version`: from the cache, else `npm pack` from the registry this machine's
 * npm is configured for, into the cache (so a second run needs no network). Either way its
 * integrity must be `integrity`, so a republished or tampered tarball is refused.
 * @throws EngineError `config-invalid` naming the package and the fix.
 */
export async function fetchNpmPackage(cacheDir: string, pkg: string, version: string, integrity: string): Promise<{ tarball: string; downloaded: boolean }> {
  const tarball = join(cacheDir, npmTarballName(pkg, version));
  const downloaded = !existsSync(tarball);
  if (downloaded) {
    await mkdir(cacheDir, { recursive: true });
    const result = await runProcess('npm', ['pack', `${pkg}@${version}`, '--pack-destination', cacheDir, '--ignore-scripts', '--silent'], {
      cwd: cacheDir,
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    }).catch((error: Error) => ({ exitCode: null, tail: `cannot run npm (${error.message})` }));
    if (result.exitCode !== 0 || !existsSync(tarball)) {
      const why = result.tail.split('\n').filter((line) => /npm (?:ERR!|error) (?:code|404|notarget)/i.test(line)).join(' ') || result.tail.trim().split('\n').slice(-2).join(' ');
      throw new EngineError(
        'config-invalid',
        `${pkg}@${version} cannot be fetched from the npm registry (${why || `npm exited ${result.exitCode}`}): check the name and version with ` +
          `\`npm view ${pkg} versions\`, the registry with \`npm config get registry\`, or copy ${npmTarballName(pkg, version)} into ${cacheDir}`,
      );
    }
  }
  const actual = fileIntegrity(tarball);
  if (actual !== integrity) {
    await rm(tarball, { force: true });
    throw new EngineError('config-invalid', `${pkg}@${version}: the tarball's integrity is ${actual}, the catalogue pins ${integrity}: the entry is wrong or the registry serves another file (check \`npm view ${pkg}@${version} dist.integrity\`)`);
  }
  return { tarball, downloaded };
}

/**
 * Unpack a tarball into `dir` (which must not exist, or be empty): npm tarballs hold one top folder
 * (`package/` for most), whose content becomes `dir`'s.
 * @throws EngineError `config-invalid` when the archive is broken or not one folder.
 */
export async function unpackNpmTarball(tarball: string, dir: string): Promise<void> {
  const unpacked = `${dir}.tar`;
  await rm(unpacked, { recursive: true, force: true });
  await mkdir(unpacked, { recursive: true });
  try {
    const result = await runProcess('tar', ['-xzf', tarball, '-C', unpacked, '--no-same-owner']);
    if (result.exitCode !== 0) throw new EngineError('config-invalid', `tar -xzf ${tarball} failed: ${result.tail.trim()}`);
    const top = await readdir(unpacked);
    if (top.length !== 1) throw new EngineError('config-invalid', `${tarball} holds ${top.length} top-level entries (${top.join(', ')}), not one package folder`);
    // rename(2) replaces an empty folder, so `dir` may be one that the caller made.
    await rename(join(unpacked, top[0]!), dir);
    if (!existsSync(join(dir, 'package.json'))) throw new EngineError('config-invalid', `${tarball} has no package.json in its top folder`);
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}
