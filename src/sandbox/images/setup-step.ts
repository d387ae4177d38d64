import type { SetupStep } from '../../config/repos-schema.js';
import { shellQuoteAll } from '../../util/shell-quote.js';

/** A repos.yaml setup step as the image build runs it. */
export interface BuildStep {
  tool: 'shell' | 'pip' | 'uv';
  /** How the step is written in repos.yaml, for progress lines and errors. */
  label: string;
  /** The bash command run in /repo. */
  command: string;
  /** Variables the step needs beyond the package index's (set as env so an older pip ignores what it does not know). */
  env: Record<string, string>;
}

const argsOf = (args: string | string[]): string => (typeof args === 'string' ? args : shellQuoteAll(args));

/** The installer must exist before it runs: say which one is missing and how to get it, not bash's "not found". */
const PIP_CHECK = 'python3 -m pip --version >/dev/null 2>&1 || { echo "ssr: pip is not installed in the image (python3 -m pip fails): use image.base debian-python (ssr adds python3-pip for pip steps) or an image that has pip" >&2; exit 127; }';
const UV_CHECK = 'command -v uv >/dev/null 2>&1 || { echo "ssr: uv is not installed in the image: add a step { pip: uv } before this one, or use an image.base that has uv" >&2; exit 127; }';

/**
 * The command of one step: a string runs as written; `pip` / `uv` install into the image's system
 * Python (a sandbox image has no other), which Debian marks externally managed, hence the flag.
 */
export function buildStep(step: SetupStep): BuildStep {
  if (typeof step === 'string') return { tool: 'shell', label: step, command: step, env: {} };
  if ('pip' in step) {
    const args = argsOf(step.pip);
    return {
      tool: 'pip',
      label: `pip: ${args}`,
      command: `${PIP_CHECK}\npython3 -m pip install ${args}`,
      env: { PIP_BREAK_SYSTEM_PACKAGES: '1', PIP_ROOT_USER_ACTION: 'ignore', PIP_NO_INPUT: '1' },
    };
  }
  const args = argsOf(step.uv);
  return { tool: 'uv', label: `uv: ${args}`, command: `${UV_CHECK}\nuv pip install --system --break-system-packages ${args}`, env: {} };
}

/** True when a recipe installs with pip, so a debian-python base needs python3-pip. */
export function hasPipStep(steps: readonly SetupStep[]): boolean {
  return steps.some((step) => typeof step !== 'string' && 'pip' in step);
}
