import { posix } from 'node:path';
import { simpleCommands, stripPrefixes } from '../tools/shell-commands.js';
import type { LeakFlag, LeakKind } from './leak-flag.js';
import { HISTORY_SUBCOMMANDS, NETWORK_GIT_SUBCOMMANDS, NETWORK_PROGRAMS, PACKAGE_COMMANDS, PYTHON_NETWORK, TEXT_RULES, outsideAllowedRoots } from './leak-rules.js';
import type { TrajectoryStep } from './trajectory-record.js';

const MAX_COMMAND_CHARS = 300;
const PYTHON = /^(?:python[\d.]*|pypy[\d.]*|ipython[\d.]*)$/;

/** git's subcommand, past its global options (`-C dir`, `-c k=v`, `--no-pager`, …). */
function gitSubcommand(args: string[]): string | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]!) ? 2 : 1;
  return args[i];
}

/** What one simple command runs, judged by its program (so `grep -r curl .` is not `curl`). */
function judgeProgram(words: string[], script: string): { kind: LeakKind; what: string } | null {
  const [first, ...args] = stripPrefixes(words);
  if (first === undefined) return null;
  const program = posix.basename(first);
  if (program === 'git') {
    const sub = gitSubcommand(args);
    if (sub !== undefined && HISTORY_SUBCOMMANDS.has(sub)) return { kind: 'history', what: `git ${sub}` };
    if (sub !== undefined && NETWORK_GIT_SUBCOMMANDS.has(sub)) return { kind: 'network', what: `git ${sub}` };
  }
  if (NETWORK_PROGRAMS.has(program)) return { kind: 'network', what: program };
  // `python -m pip install …` is pip.
  const pip = PYTHON.test(program) && args[0] === '-m' && args[1] !== undefined && /^pip\d*$/.test(args[1]) ? args.slice(2) : null;
  const packageProgram = pip ? 'pip' : program.replace(/^pip\d+(?:\.\d+)?$/, 'pip');
  const subs = PACKAGE_COMMANDS.get(packageProgram);
  const packageArgs = pip ?? args;
  const sub = packageArgs.find((arg) => !arg.startsWith('-'));
  if (subs && (subs.size === 0 || (sub !== undefined && subs.has(sub)))) return { kind: 'package-download', what: `${packageProgram} ${sub ?? ''}`.trim() };
  if (PYTHON.test(program) && PYTHON_NETWORK.test(script)) return { kind: 'network', what: 'Python network code' };
  return null;
}

const SHELLS = /^(?:bash|sh|dash|zsh)$/;
const SUBSTITUTION = /\$\(((?:[^()]|\([^()]*\))*)\)|`([^`]*)`/g;

/**
 * The simple commands of a script, and of what it runs inside: `$(…)` and backtick substitutions
 * and `bash -c '…'` (bounded depth: this is a guard, not a shell).
 */
function allCommands(script: string, depth = 0): string[][] {
  const commands = simpleCommands(script).map((command) => command.words);
  if (depth >= 3) return commands;
  const inner: string[][] = [];
  for (const words of commands) {
    for (const word of words) for (const match of word.matchAll(SUBSTITUTION)) inner.push(...allCommands(match[1] ?? match[2] ?? '', depth + 1));
    const [program, ...args] = stripPrefixes(words);
    const code = args[args.indexOf('-c') + 1];
    if (program !== undefined && SHELLS.test(posix.basename(program)) && args.includes('-c') && code !== undefined) inner.push(...allCommands(code, depth + 1));
  }
  return [...commands, ...inner];
}

/** Every leak in one bash script, at most one per kind. */
function scanCommand(script: string): Array<{ kind: LeakKind; what: string }> {
  const found = new Map<LeakKind, string>();
  for (const words of allCommands(script)) {
    const hit = judgeProgram(words, script);
    if (hit && !found.has(hit.kind)) found.set(hit.kind, hit.what);
  }
  for (const rule of TEXT_RULES) if (!found.has(rule.kind) && rule.pattern.test(script)) found.set(rule.kind, rule.what);
  return [...found].map(([kind, what]) => ({ kind, what }));
}

/** Every leak in a path given to `edit` or `create`. */
function scanPath(path: string): Array<{ kind: LeakKind; what: string }> {
  const found = new Map<LeakKind, string>();
  if (/(?:^|\/)\.git(?:\/|$)/.test(posix.resolve('/repo', path))) found.set('history', 'the .git directory');
  for (const rule of TEXT_RULES) if (!found.has(rule.kind) && rule.pattern.test(path)) found.set(rule.kind, rule.what);
  if (!found.has('outside-repo') && outsideAllowedRoots(path)) found.set('outside-repo', 'a file outside the repo');
  return [...found].map(([kind, what]) => ({ kind, what }));
}

const stringArg = (args: unknown, key: string): string | undefined => {
  const value = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/**
 * Scan a Solver trajectory's tool calls for attempts to reach what it must not (see
 * `LEAK_KINDS`): bash commands by the programs they run and the paths they name, `edit` and
 * `create` by their paths. Pure and heuristic: it flags attempts, whether or not they succeeded,
 * and judges commands as written (a script the Solver wrote and then ran is judged by its name).
 * One flag per kind per turn, in turn order.
 */
export function scanLeaks(steps: ReadonlyArray<Pick<TrajectoryStep, 'turn' | 'toolCall'>>): LeakFlag[] {
  const flags: LeakFlag[] = [];
  for (const step of steps) {
    const call = step.toolCall;
    if (!call) continue;
    const command = call.name === 'bash' ? stringArg(call.arguments, 'command') : undefined;
    const path = call.name === 'edit' || call.name === 'create' ? stringArg(call.arguments, 'path') : undefined;
    const hits = command !== undefined ? scanCommand(command) : path !== undefined ? scanPath(path) : [];
    const shown = (command ?? `${call.name} ${path}`).slice(0, MAX_COMMAND_CHARS);
    for (const hit of hits) flags.push({ kind: hit.kind, turn: step.turn, command: shown, what: hit.what });
  }
  return flags;
}
