import type { SetupStep } from '../../config/repos-schema.js';
import { shellQuoteAll } from '../../util/shell-quote.js';
import { editableRepoInstall } from './editable-install.js';

/** A repos.yaml setup step as the image build runs it. */
export interface BuildStep {
  tool: 'shell' | 'pip' | 'uv' | 'npm';
  /** How the step is written in repos.yaml, for progress lines and errors. */
  label: string;
  /** The bash command run in /repo. */
  command: string;
  /** Variables the step needs beyond the package index's (set as env so an older pip ignores what it does not know). */
  env: Record<string, string>;
}

const argsOf = (args: string | string[]): string => (typeof args === 'string' ? args : shellQuoteAll(args));

/** The installer's arguments as run (the repo itself made editable) and the label: as written, plus what ssr changed. */
function installArgs(tool: 'pip' | 'uv', written: string | string[]): { args: string; label: string } {
  const { args, changed } = editableRepoInstall(written);
  const label = `${tool}: ${argsOf(written)}`;
  return { args: argsOf(args), label: changed ? `${label} (installed editable: ${argsOf(args)})` : label };
}

/** The installer must exist before it runs: say which one is missing and how to get it, not bash's "not found". */
const PIP_CHECK = 'python3 -m pip --version >/dev/null 2>&1 || { echo "ssr: pip is not installed in the image (python3 -m pip fails): use image.base debian-python (ssr adds python3-pip for pip steps) or an image that has pip" >&2; exit 127; }';
const UV_CHECK = 'command -v uv >/dev/null 2>&1 || { echo "ssr: uv is not installed in the image: add a step { pip: uv } before this one, or use an image.base that has uv" >&2; exit 127; }';

const NPM_CHECK = 'command -v npm >/dev/null 2>&1 || { echo "ssr: npm is not installed in the image: use image.base debian-python (ssr adds the Debian nodejs and npm for npm steps) or an image that has them" >&2; exit 127; }';
/** `npm ci` needs a lockfile; without one npm would resolve versions afresh, so the image would not be reproducible. */
const LOCK_CHECK = '[ -f package-lock.json ] || [ -f npm-shrinkwrap.json ] || { echo "ssr: /repo has no package-lock.json (or npm-shrinkwrap.json): an npm step installs exactly what a lockfile pins; make one in the repo with npm install --package-lock-only (it writes package-lock.json from package.json without installing) and commit package-lock.json" >&2; exit 1; }';
/** npm's cache lives outside /repo and is dropped after the install, so it is neither in the repo's git status nor in the image. */
const NPM_CACHE = '/tmp/ssr-npm-cache';
/** node_modules is baked into /repo; the local exclude keeps it out of `git status` and diffs even where the repo's .gitignore misses it. */
const EXCLUDE_NODE_MODULES = "mkdir -p .git/info && { grep -qxF '/node_modules/' .git/info/exclude 2>/dev/null || echo '/node_modules/' >> .git/info/exclude; }";

/**
 * The command of one step: a string runs as written; `pip` / `uv` install into the image's system
 * Python (a sandbox image has no other), which Debian marks externally managed, hence the flag;
 * the repo itself as a target is installed editable (see editableRepoInstall).
 */
export function buildStep(step: SetupStep): BuildStep {
  if (typeof step === 'string') return { tool: 'shell', label: step, command: step, env: {} };
  if ('pip' in step) {
    const { args, label } = installArgs('pip', step.pip);
    return {
      tool: 'pip',
      label,
      command: `${PIP_CHECK}\npython3 -m pip install ${args}`,
      env: { PIP_BREAK_SYSTEM_PACKAGES: '1', PIP_ROOT_USER_ACTION: 'ignore', PIP_NO_INPUT: '1' },
    };
  }
  if ('npm' in step) {
    const args = argsOf(step.npm);
    return {
      tool: 'npm',
      label: `npm: ${args}`,
      command: `${NPM_CHECK}\n${LOCK_CHECK}\n${EXCLUDE_NODE_MODULES}\nnpm ${args}\nstatus=$?\nrm -rf ${NPM_CACHE}\nexit $status`,
      env: { npm_config_cache: NPM_CACHE, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    };
  }
  const { args, label } = installArgs('uv', step.uv);
  return { tool: 'uv', label, command: `${UV_CHECK}\nuv pip install --system --break-system-packages ${args}`, env: {} };
}

/** True when a recipe installs with pip, so a debian-python base needs python3-pip. */
export function hasPipStep(steps: readonly SetupStep[]): boolean {
  return steps.some((step) => typeof step !== 'string' && 'pip' in step);
}

/** True when a recipe installs with npm, so a debian-python base needs Debian's nodejs and npm. */
export function hasNpmStep(steps: readonly SetupStep[]): boolean {
  return steps.some((step) => typeof step !== 'string' && 'npm' in step);
}
