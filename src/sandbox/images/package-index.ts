import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * What pip / uv build steps get of the host's package-index configuration: its variables, its
 * config files and the local directories they point at (bind-mounted read-only for the build
 * only, so nothing of it lands in the image), and whether the build container needs a network.
 */
export interface PackageIndexAccess {
  /** Variables passed to pip steps (PIP_*, proxies). */
  pipEnv: Record<string, string>;
  /** Variables passed to uv steps (UV_*, proxies). */
  uvEnv: Record<string, string>;
  /** `host:container:ro` bind mounts: config files and local index / wheel directories. */
  binds: string[];
  /** `host` when an index is a URL (or none is configured, so pip would use PyPI); else `none`. */
  network: 'host' | 'none';
  /** One line saying what was used, for progress output and build errors. */
  summary: string;
}

/** Where a config file sits in the build container; `env` names the variable that points pip / uv at it. */
interface ConfigFile {
  host: string;
  container: string;
  env?: string;
}

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];
/** Variables whose paths and URLs the steps need: every PIP_* / UV_* setting but the config file itself. */
const SETTING_VAR = /^(PIP|UV)_(?!CONFIG_FILE$)/;

function configFiles(env: NodeJS.ProcessEnv): ConfigFile[] {
  const home = env.HOME ?? homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  const files: ConfigFile[] = [
    { host: '/etc/pip.conf', container: '/etc/pip.conf' },
    { host: '/etc/xdg/pip/pip.conf', container: '/etc/xdg/pip/pip.conf' },
    { host: join(home, '.pip', 'pip.conf'), container: '/root/.pip/pip.conf' },
    { host: join(xdg, 'pip', 'pip.conf'), container: '/root/.config/pip/pip.conf' },
    { host: '/etc/uv/uv.toml', container: '/etc/uv/uv.toml' },
    { host: join(xdg, 'uv', 'uv.toml'), container: '/root/.config/uv/uv.toml' },
  ];
  if (env.PIP_CONFIG_FILE) files.push({ host: env.PIP_CONFIG_FILE, container: '/run/ssr-build/pip.conf', env: 'PIP_CONFIG_FILE' });
  if (env.UV_CONFIG_FILE) files.push({ host: env.UV_CONFIG_FILE, container: '/run/ssr-build/uv.toml', env: 'UV_CONFIG_FILE' });
  return files.filter((file) => existsSync(file.host));
}

/** The value part of a config line (continuation lines are all value); comments and sections name nothing. */
function configValue(line: string): string {
  if (/^\s*([#;[]|$)/.test(line)) return '';
  const equals = line.indexOf('=');
  return equals === -1 ? line : line.slice(equals + 1);
}

/** The paths and URLs a value names (indexes, find-links, constraints, certificates): words, TOML strings and lists alike. */
function locations(value: string): string[] {
  return value.split(/[\s,"'[\]{}]+/).filter((word) => /^(https?:\/\/|file:\/\/|\/)/.test(word));
}

/**
 * The host path to mount for a local location (a file or a directory): a PEP 503 `simple/` index
 * links to files beside it, so its parent. Top-level and kernel directories are never mounted.
 */
function localPath(location: string): string | undefined {
  const path = location.startsWith('file://') ? decodeURIComponent(location.slice('file://'.length)) : location;
  if (!path.startsWith('/') || !existsSync(path)) return undefined;
  const mount = basename(path) === 'simple' ? dirname(path) : path;
  const parts = mount.split('/').filter(Boolean);
  return parts.length < 2 || ['proc', 'sys', 'dev'].includes(parts[0]!) ? undefined : mount;
}

/** Drop paths inside another mounted directory. */
function outermost(dirs: string[]): string[] {
  const unique = [...new Set(dirs)].sort();
  return unique.filter((dir) => !unique.some((other) => other !== dir && dir.startsWith(`${other}/`)));
}

/** Read the package-index configuration pip and uv would use on this host (`env`: the process's). */
export function packageIndexAccess(env: NodeJS.ProcessEnv = process.env): PackageIndexAccess {
  const pick = (prefix: string) =>
    Object.fromEntries(Object.entries(env).filter(([key, value]) => value !== undefined && (key.startsWith(prefix) || PROXY_VARS.includes(key)) && !key.endsWith('_CONFIG_FILE'))) as Record<string, string>;
  const pipEnv = pick('PIP_');
  const uvEnv = pick('UV_');
  const files = configFiles(env);
  for (const file of files) {
    if (file.env === 'PIP_CONFIG_FILE') pipEnv.PIP_CONFIG_FILE = file.container;
    if (file.env === 'UV_CONFIG_FILE') uvEnv.UV_CONFIG_FILE = file.container;
  }
  const named = [
    ...Object.entries(env).filter(([key]) => SETTING_VAR.test(key)).flatMap(([, value]) => locations(value ?? '')),
    ...files.flatMap((file) => readFileSync(file.host, 'utf8').split('\n').flatMap((line) => locations(configValue(line)))),
  ];
  const configHosts = new Set(files.map((file) => file.host));
  const dirs = outermost(named.map(localPath).filter((path): path is string => path !== undefined && !configHosts.has(path)));
  // Credentials in an index URL never reach a log line.
  const urls = named.filter((location) => /^https?:\/\//.test(location)).map((url) => url.replace(/\/\/[^/@]*@/, '//***@'));
  const indexed = named.some((location) => /^(https?|file):\/\//.test(location)) || Object.keys(env).some((key) => /^(PIP|UV)_(INDEX_URL|FIND_LINKS|DEFAULT_INDEX|INDEX)$/.test(key));
  // No index configured at all: pip would use PyPI, which needs the network.
  const network = urls.length > 0 || !indexed ? 'host' : 'none';
  const binds = [...files.map((file) => `${file.host}:${file.container}:ro`), ...dirs.map((dir) => `${dir}:${dir}:ro`)];
  const configured = [...Object.keys(env).filter((key) => SETTING_VAR.test(key)).sort(), ...files.map((file) => file.host)];
  const summary = !indexed
    ? 'no package index configured (PIP_INDEX_URL, UV_INDEX_URL, pip.conf, uv.toml): pip / uv use PyPI over the host network'
    : `package index from ${configured.join(', ')}: ${[...dirs.map((dir) => `${dir} (mounted read-only)`), ...urls].join(', ')}; build network ${network}`;
  return { pipEnv, uvEnv, binds, network, summary };
}
