import { z } from 'zod';
import { REPO_DIR, SCRATCH_DIR } from '../sandbox/sandbox.js';
import { capOutput, DEFAULT_TOOL_OUTPUT_BYTES } from './cap-output.js';
import { interactiveRefusal } from './interactive-guard.js';
import { toolError, type Tool } from './tool.js';

export const bashArgsSchema = z.object({
  command: z.string().min(1).describe('Bash command(s) to run. Multi-line scripts and heredocs are fine.'),
});
export type BashArgs = z.infer<typeof bashArgsSchema>;

/** Where the shell keeps its state between calls (outside the repository, so diffs never see it). */
export const SHELL_STATE_DIR = `${SCRATCH_DIR}/.shell`;

/**
 * Every call is a fresh `bash -c`; this wrapper makes it behave like one persistent shell. The
 * command arrives on stdin (no argv/env size limit, and the command's own stdin is then empty),
 * the saved cwd and exported variables are restored, and an EXIT trap saves them again — so a
 * command that runs `exit` or fails still keeps its `cd`/`export`. Not kept: unexported shell
 * variables, functions, aliases, `set` options, and the changes of a command killed by the
 * timeout, one that `exec`s away from the shell or one that replaces the EXIT trap. Pagers and editors are pinned to no-ops so
 * `git log`, `git commit --amend` and friends never wait for a terminal.
 */
const WRAPPER = [
  `__ssr_cmd=$(cat)`,
  `mkdir -p ${SHELL_STATE_DIR}`,
  `[ -f ${SHELL_STATE_DIR}/env ] && source ${SHELL_STATE_DIR}/env 2>/dev/null`,
  `cd "$(cat ${SHELL_STATE_DIR}/cwd 2>/dev/null || echo ${REPO_DIR})" 2>/dev/null || cd ${REPO_DIR}`,
  `export GIT_PAGER=cat PAGER=cat MANPAGER=cat GIT_EDITOR=true EDITOR=true VISUAL=true GIT_TERMINAL_PROMPT=0 TERM=dumb PIP_NO_INPUT=1`,
  `__ssr_save() { pwd > ${SHELL_STATE_DIR}/cwd; ( unset -v PWD OLDPWD SHLVL $(compgen -e SSR_); export -p ) > ${SHELL_STATE_DIR}/env; }`,
  `trap __ssr_save EXIT`,
  `eval "$__ssr_cmd" < /dev/null`,
].join('\n');

export interface BashToolOptions {
  /** Cap on what one command shows the model (default 16 KiB, head + tail). */
  maxOutputBytes?: number;
}

/** `bash`: a persistent, non-interactive shell in the sandbox (method §8). */
export function createBashTool(options: BashToolOptions = {}): Tool<BashArgs> {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_TOOL_OUTPUT_BYTES;
  return {
    name: 'bash',
    description:
      'Run a command in a persistent bash shell inside the sandbox (starts in /repo; `cd` and `export` persist between calls). ' +
      'Non-interactive: no editors, pagers or REPLs, and stdin is empty. Long output is cut in the middle; ' +
      'each command has a time limit.',
    schema: bashArgsSchema,
    async run({ command }, { sandbox, commandTimeoutMs }) {
      const refusal = interactiveRefusal(command);
      if (refusal) return toolError(refusal);
      // The sandbox keeps more than we show, so our own cut (with its note) decides what the model sees.
      const sandboxCap = maxOutputBytes * 4;
      const result = await sandbox.exec(WRAPPER, { stdin: command, cwd: REPO_DIR, timeoutMs: commandTimeoutMs, maxOutputBytes: sandboxCap });
      const parts: string[] = [];
      const output = result.output.replace(/\n$/, '');
      // When the sandbox cut, it kept exactly its cap (head + tail): that gives the true size.
      const total = result.droppedBytes > 0 ? sandboxCap + result.droppedBytes : undefined;
      parts.push(output === '' ? '(no output)' : capOutput(output, maxOutputBytes, total, command));
      if (result.timedOut) {
        parts.push(
          `[timed out after ${Math.round(commandTimeoutMs / 1000)} s: the command was killed and its cd/export changes were lost. ` +
            'Run long jobs in the background with output to a file, or narrow them.]',
        );
      } else if (result.exitCode !== 0) parts.push(`[exit code ${result.exitCode ?? 'none: killed by a signal'}]`);
      return { output: parts.join('\n'), isError: result.timedOut || result.exitCode !== 0 };
    },
  };
}

/** `bash` with the default output cap. */
export const bashTool = createBashTool();
