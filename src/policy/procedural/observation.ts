import type { ChatMessage } from '../policy.js';

/**
 * What one tool call printed, as a procedural program reads it. The loop appends a budget footer
 * to every observation and the tools append status notes; both are taken off `text` and turned
 * into fields, so a program matches on the tool's own output only.
 */
export interface Observation {
  /** The tool that ran (`bash`, `edit`, ...), or null when the turn was refused as a format error. */
  tool: string | null;
  /** The output without the budget footer and without the bash exit / timeout notes. */
  text: string;
  /** Whether the call did what was asked: exit code 0, an edit/create made, a submission recorded. */
  ok: boolean;
  /** `bash` only: the exit code (null when killed by a signal or when not a bash call). */
  exitCode: number | null;
  timedOut: boolean;
  /** The loop's footer: turns and tokens left (null when absent). */
  turnsLeft: number | null;
  tokensLeft: number | null;
  /** The message content as it came. */
  raw: string;
}

const FOOTER = /\n*\[(\d+) turns and ~(\d+) tokens left\]\s*$/;
const EXIT_NOTE = /\n?\[exit code (\d+|none: killed by a signal)\]$/;
const TIMEOUT_NOTE = /\n?\[timed out after \d+ s: [^\]]*\]$/;

// The first words each tool prints on success; anything else is the tool's error text.
const SUCCESS_PREFIX: Record<string, string> = { edit: 'Edited ', create: 'Created ', submit: 'Submission recorded.' };

/** Read one observation message (a `tool` message, or the loop's `user` complaint about a format error). */
export function parseObservation(message: ChatMessage): Observation {
  const raw = message.content;
  const tool = message.role === 'tool' ? message.name : null;
  let text = raw;
  let turnsLeft: number | null = null;
  let tokensLeft: number | null = null;
  const footer = FOOTER.exec(text);
  if (footer) {
    turnsLeft = Number(footer[1]);
    tokensLeft = Number(footer[2]);
    text = text.slice(0, footer.index);
  }
  let exitCode: number | null = null;
  let timedOut = false;
  let ok: boolean;
  if (tool === 'bash') {
    const timeout = TIMEOUT_NOTE.exec(text);
    const exit = timeout ? null : EXIT_NOTE.exec(text);
    if (timeout) {
      timedOut = true;
      text = text.slice(0, timeout.index);
    } else if (exit) {
      exitCode = /^\d+$/.test(exit[1]!) ? Number(exit[1]) : null;
      text = text.slice(0, exit.index);
    } else if (!isRefusal(text)) exitCode = 0;
    if (text === '(no output)') text = '';
    ok = exitCode === 0;
  } else {
    const prefix = tool ? SUCCESS_PREFIX[tool] : undefined;
    ok = prefix !== undefined && text.startsWith(prefix);
  }
  return { tool, text, ok, exitCode, timedOut, turnsLeft, tokensLeft, raw };
}

/** The observation a program is resumed with: the last message of the conversation. */
export function lastObservation(messages: readonly ChatMessage[]): Observation | null {
  const last = messages.at(-1);
  if (!last || last.role === 'system' || last.role === 'assistant') return null;
  return parseObservation(last);
}

// The bash tool refuses interactive commands without running them; that text has no exit note.
function isRefusal(text: string): boolean {
  return /^(Refused|Not run)\b/i.test(text);
}
