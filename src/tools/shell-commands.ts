/**
 * A forgiving, best-effort split of a bash script into simple commands, for guardrails only (the
 * script itself is always run by bash, never by this). It understands quotes, escapes, comments,
 * `$(…)`/backticks, pipelines, lists, redirections and heredoc bodies — enough to find the program
 * each command runs and whether that command's stdin is fed by something.
 */

/** One simple command: its words after expansion-free unquoting, and where its stdin comes from. */
export interface SimpleCommand {
  words: string[];
  /** Stdin is a pipe, a redirection, a heredoc or a here-string (so a REPL would not wait for a user). */
  stdinFed: boolean;
}

const OPERATOR_CHARS = new Set([';', '&', '|', '(', ')']);

export function simpleCommands(script: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], stdinFed: false };
  let word: string | null = null;
  let skipNextWord = false; // the next word is a redirection target, not an argument
  const heredocs: { delimiter: string; stripTabs: boolean }[] = [];

  const endWord = (): void => {
    if (word !== null && !skipNextWord) current.words.push(word);
    else if (word !== null) skipNextWord = false;
    word = null;
  };
  const endCommand = (pipedNext: boolean): void => {
    endWord();
    skipNextWord = false;
    if (current.words.length > 0) commands.push(current);
    current = { words: [], stdinFed: pipedNext };
  };

  let i = 0;
  const readUntil = (close: string): string => {
    const end = script.indexOf(close, i);
    const text = end < 0 ? script.slice(i) : script.slice(i, end);
    i = end < 0 ? script.length : end + close.length;
    return text;
  };
  const readBalanced = (open: string, close: string): string => {
    let depth = 1;
    const start = i;
    while (i < script.length && depth > 0) {
      const c = script[i++];
      if (c === '\\') i++;
      else if (c === "'") readUntil("'");
      else if (c === open) depth++;
      else if (c === close) depth--;
    }
    return script.slice(start, i);
  };
  const readWordText = (): string => {
    // A bare word for a heredoc delimiter: quotes are removed (quoting only changes expansion).
    while (script[i] === ' ' || script[i] === '\t') i++;
    let text = '';
    while (i < script.length && !/[\s;&|<>()]/.test(script[i]!)) {
      const c = script[i++]!;
      if (c === "'" || c === '"') text += readUntil(c);
      else if (c === '\\') text += script[i++] ?? '';
      else text += c;
    }
    return text;
  };

  while (i < script.length) {
    const c = script[i]!;
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (c === '\n') {
      i++;
      endCommand(false);
      for (const doc of heredocs.splice(0)) skipHeredocBody(doc);
    } else if (c === '#' && word === null) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? script.length : end; // the newline itself ends the command
    } else if (c === '\\') {
      if (script[i + 1] === '\n') i += 2;
      else {
        word = (word ?? '') + (script[i + 1] ?? '');
        i += 2;
      }
    } else if (c === "'") {
      i++;
      word = (word ?? '') + readUntil("'");
    } else if (c === '"') {
      i++;
      word = (word ?? '') + readDoubleQuoted();
    } else if (c === '`') {
      i++;
      word = (word ?? '') + '`' + readUntil('`') + '`';
    } else if (c === '$' && (script[i + 1] === '(' || script[i + 1] === '{')) {
      const open = script[i + 1]!;
      i += 2;
      word = (word ?? '') + '$' + open + readBalanced(open, open === '(' ? ')' : '}');
    } else if (c === '<' || c === '>' || (c === '&' && script[i + 1] === '>')) {
      readRedirection();
    } else if (OPERATOR_CHARS.has(c)) {
      const pipe = c === '|' && script[i + 1] !== '|';
      i += c === script[i + 1] && c !== '(' && c !== ')' ? 2 : 1;
      if (pipe && script[i] === '&') i++; // |& pipes stderr too
      endCommand(pipe);
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  endCommand(false);
  return commands;

  function readDoubleQuoted(): string {
    let text = '';
    while (i < script.length && script[i] !== '"') {
      const c = script[i++]!;
      if (c === '\\' && i < script.length) text += script[i++];
      else if (c === '$' && script[i] === '(') {
        i++;
        text += '$(' + readBalanced('(', ')');
      } else text += c;
    }
    i++;
    return text;
  }

  function readRedirection(): void {
    // A word of digits right before the operator is its file descriptor (2>&1), not an argument.
    if (word !== null && /^\d+$/.test(word)) word = null;
    endWord();
    if (script.startsWith('<<<', i)) {
      i += 3;
      current.stdinFed = true;
      skipNextWord = true;
    } else if (script.startsWith('<<', i)) {
      i += 2;
      const stripTabs = script[i] === '-';
      if (stripTabs) i++;
      heredocs.push({ delimiter: readWordText(), stripTabs });
      current.stdinFed = true;
    } else if (script.startsWith('<(', i) || script.startsWith('>(', i)) {
      i += 2;
      word = '<(' + readBalanced('(', ')'); // process substitution: an argument (a path)
    } else {
      if (script[i] === '<') current.stdinFed = true;
      i++;
      while (script[i] === '>' || script[i] === '&' || script[i] === '|') i++;
      skipNextWord = true;
    }
  }

  function skipHeredocBody(doc: { delimiter: string; stripTabs: boolean }): void {
    while (i < script.length) {
      const end = script.indexOf('\n', i);
      const line = end < 0 ? script.slice(i) : script.slice(i, end);
      i = end < 0 ? script.length : end + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) return;
    }
  }
}

/** Words that run the next word as the command (with their own options skipped). */
const WRAPPERS = new Set(['sudo', 'env', 'nohup', 'time', 'exec', 'command', 'builtin', 'nice', 'stdbuf', 'timeout', 'xargs']);
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '}', 'fi', 'done']);

/**
 * The words of a simple command from the program it runs: shell keywords, `VAR=value` assignments
 * and wrappers that run the next word (`sudo`, `env`, `timeout 5`, `xargs`, … with their options) dropped.
 */
export function stripPrefixes(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (KEYWORDS.has(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (WRAPPERS.has(w)) {
      i++;
      while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
      if (w === 'timeout' && i < words.length) i++; // its duration
    } else break;
  }
  return words.slice(i);
}
