const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];

/**
 * What an npm build step gets of the host's npm configuration: its `npm_config_*` /
 * `NPM_CONFIG_*` variables (a registry mirror, its CA) and proxies, passed for the build only.
 * Config files (.npmrc, which may hold tokens) are not mounted: set `npm_config_registry` and
 * friends in the environment of `ssr build-image` instead.
 */
export function npmRegistryEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && (/^npm_config_/i.test(entry[0]) || PROXY_VARS.includes(entry[0]))),
  );
}
