// @ts-check
import escapeStringRegexp from 'escape-string-regexp';

/**
 * A URL slug: lower case, runs of anything but letters and digits become one dash.
 * @param {string} text
 * @returns {string}
 */
export function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Cut `text` to at most `max` characters, the last one an ellipsis when it was cut.
 * @param {string} text
 * @param {number} max
 * @returns {string}
 */
export function truncate(text, max) {
  if (max < 1) throw new RangeError(`max must be at least 1, got ${max}`);
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1)}…`;
}

/**
 * Upper-case the first letter of every word.
 * @param {string} text
 * @returns {string}
 */
export function titleCase(text) {
  return text
    .split(' ')
    .map((word) => (word === '' ? word : word[0].toUpperCase() + word.substring(1).toLowerCase()))
    .join(' ');
}

/**
 * How many times `needle` occurs in `haystack`, without overlaps.
 * @param {string} haystack
 * @param {string} needle
 * @returns {number}
 */
export function countOccurrences(haystack, needle) {
  if (needle === '') return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/**
 * Wrap every case-insensitive occurrence of `word` in `text` with `before` and `after`;
 * `word` is literal text, never a pattern.
 * @param {string} text
 * @param {string} word
 * @param {string} [before]
 * @param {string} [after]
 * @returns {string}
 */
export function highlight(text, word, before = '[', after = ']') {
  if (word === '') return text;
  return text.replace(new RegExp(escapeStringRegexp(word), 'gi'), (match) => `${before}${match}${after}`);
}
