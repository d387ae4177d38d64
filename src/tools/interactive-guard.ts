import { posix } from 'node:path';
import { simpleCommands, stripPrefixes, type SimpleCommand } from './shell-commands.js';

/**
 * Refuse commands that would wait for a human (SWE-agent's guardrail): the shell has no terminal
 * and no input, so an editor or a REPL either hangs until the timeout or quits doing nothing, and
 * the model learns nothing from either. Returns the refusal, or null to let the command run.
 * Heuristic by design: it judges the program each simple command starts, not what scripts do.
 */
export function interactiveRefusal(script: string): string | null {
  for (const command of simpleCommands(script)) {
    const words = stripPrefixes(command.words);
    const program = words[0] === undefined ? undefined : posix.basename(words[0]);
    if (program === undefined) continue;
    const reason = judge(program, words.slice(1), command);
    if (reason) return `Refused to run \`${program}\`: ${reason} This shell is non-interactive (no terminal, no input).`;
  }
  return null;
}

const EDITORS = new Set(['vi', 'vim', 'nvim', 'view', 'vimdiff', 'nano', 'pico', 'emacs', 'joe', 'micro', 'mcedit']);
const PAGERS = new Set(['less', 'more', 'most']);
const MONITORS = new Set(['top', 'htop', 'atop', 'btop', 'watch', 'tmux', 'screen']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish']);
const REPLS = /^(python[\d.]*|ipython[\d.]*|pypy[\d.]*|node|irb|ghci|R)$/;
function judge(program: string, args: string[], command: SimpleCommand): string | null {
  if (EDITORS.has(program) && !args.some((a) => a === '--batch' || a === '-batch' || a === '--script')) {
    return 'it is an interactive editor. Use the `edit` or `create` tool to change files, and `cat -n`, `sed -n` or `grep -n` to read them.';
  }
  if (PAGERS.has(program)) return 'it is a pager. Use `cat`, `head`, `tail` or `sed -n START,ENDp` instead.';
  if (MONITORS.has(program)) return 'it redraws the screen until stopped. Use a one-shot command such as `ps aux` instead.';
  const noProgram = !args.some((a) => !a.startsWith('-') || ['-c', '-m', '-e', '-'].includes(a));
  if (REPLS.test(program) && (args.includes('-i') || (noProgram && !command.stdinFed))) {
    return 'without a script, `-c`/`-m` code or piped input it starts an interactive interpreter. Run a file, or pass code with `-c` or a heredoc.';
  }
  if (SHELLS.has(program) && (args.includes('-i') || (noProgram && !command.stdinFed))) {
    return 'without a script or `-c` it starts an interactive shell. Run the commands directly, or use `bash -c` / `bash script.sh`.';
  }
  if (program === 'git') return judgeGit(args);
  return null;
}

function judgeGit(args: string[]): string | null {
  // Skip global options (`-C dir`, `-c key=value`, `--no-pager`, …) to reach the subcommand.
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  const has = (...flags: string[]): boolean => rest.some((a) => flags.includes(a));
  if (['add', 'checkout', 'reset', 'restore', 'stash', 'commit'].includes(sub ?? '') && has('-p', '--patch', '-i', '--interactive')) {
    return 'interactive patch selection needs a terminal. Name the files (or edit them first) instead.';
  }
  if (sub === 'commit') {
    const message = rest.some((a) => /^-[a-zA-Z]*[mFC]/.test(a) || /^--(message|file|reuse-message|no-edit|amend|fixup)(=|$)/.test(a));
    return message ? null : 'it would open an editor for the message. Pass it with `git commit -m "…"`.';
  }
  if (sub === 'rebase' && (has('-i', '--interactive') || rest.some((a) => /^-[a-zA-Z]*i/.test(a)))) {
    return '`git rebase -i` needs an editor. Use a non-interactive rebase, `git revert`, `git cherry-pick` or `git reset`.';
  }
  if (sub === 'mergetool' || sub === 'difftool') return 'it opens external interactive tools. Use `git diff` instead.';
  return null;
}
