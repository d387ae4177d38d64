import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Root of ssr's machine-wide cache (base rootfs builds, bwrap templates, locks):
 * `$SSR_HOME`, else `~/.cache/ssr`. Shared by every process on the machine on purpose, so a
 * 60-second debootstrap happens once per machine, not once per run.
 */
export function ssrHome(): string {
  const override = process.env.SSR_HOME;
  return override !== undefined && override !== '' ? resolve(override) : join(homedir(), '.cache', 'ssr');
}

/** A path under {@link ssrHome}. */
export function ssrPath(...parts: string[]): string {
  return join(ssrHome(), ...parts);
}
