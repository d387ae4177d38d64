/** Install commands of native modules: a failure in one is a build that needs compilers or headers. */
const NATIVE_BUILD = /node-gyp|prebuild-install|node-pre-gyp|cmake-js|napi/;

/** The value of an `npm ERR! <field> …` line; `command sh -c` is the script that failed (npm also prints `command failed`). */
const npmLine = (output: string, field: 'path' | 'command sh -c'): string | undefined =>
  new RegExp(`^npm (?:ERR!|error) ${field} (?:-- )?(.+)$`, 'm').exec(output)?.[1]?.trim();

/**
 * What a failed `npm ci` says and how to fix it, read from its output (npm 9's `npm ERR!` and
 * npm 10's `npm error` lines): the package whose install script failed (a native module that
 * did not build names its Debian build packages and `--ignore-scripts`), or a registry that
 * could not be reached. Undefined when the output shows neither.
 */
export function npmFailureHint(output: string): string | undefined {
  const path = npmLine(output, 'path');
  const command = npmLine(output, 'command sh -c');
  if (path !== undefined && command !== undefined) {
    const module = path.includes('node_modules/') ? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length) : undefined;
    if (module === undefined) {
      return `the repo's own lifecycle script failed at npm ci (\`${command}\`): make it work in the image (image.packages, a setup step before npm ci), or skip every install script with { npm: "ci --ignore-scripts" }`;
    }
    const gyp = /gyp ERR! stack Error: ([^\n]+)/.exec(output)?.[1]?.trim() ?? /^(?:npm (?:ERR!|error) )?(.*(?:error:|Error:)[^\n]*)$/m.exec(output)?.[1]?.trim();
    if (NATIVE_BUILD.test(command) || /gyp ERR!/.test(output)) {
      return (
        `the native module ${module} did not build at npm ci (\`${command}\`${gyp ? `: ${gyp.slice(0, 160)}` : ''}): ` +
        `add the Debian packages its build needs to image.packages in repos.yaml (build-essential for make and g++; python3 is in the base image; a library's -dev package if it links one), ` +
        `or, when ${module} is optional for the tests, install without install scripts: { npm: "ci --ignore-scripts" }`
      );
    }
    return `the install script of ${module} failed at npm ci (\`${command}\`): add what it needs to image.packages in repos.yaml, or, when ${module}'s script is optional for the tests, install without install scripts: { npm: "ci --ignore-scripts" }`;
  }
  const unreachable = /(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET)[^\n]*/.exec(output)?.[0];
  if (unreachable !== undefined && /^npm (?:ERR!|error)/m.test(output)) {
    return `npm could not reach its registry at image build (${unreachable.slice(0, 160)}): the build container uses the host network; set npm_config_registry (and HTTPS_PROXY) on the host to a registry it can reach`;
  }
  return undefined;
}
