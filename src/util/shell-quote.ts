/**
 * Quote one word for bash so it reaches the command as exactly these characters.
 * Single quotes disable every expansion; an embedded `'` is closed, escaped and reopened.
 * Plain words made only of safe characters are left as they are, to keep commands readable.
 */
export function shellQuote(word: string): string {
  if (word.includes('\0')) throw new TypeError('shellQuote: a shell word cannot contain a NUL byte');
  if (word !== '' && /^[A-Za-z0-9_\-+=.,/:@%]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Quote every word and join them with spaces. */
export function shellQuoteAll(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
