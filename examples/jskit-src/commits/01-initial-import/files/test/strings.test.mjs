import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countOccurrences, highlight, slugify, titleCase, truncate } from '../src/strings.mjs';

describe('slugify', () => {
  it('lower-cases and joins words with dashes', () => assert.equal(slugify('Hello, World!'), 'hello-world'));
  it('drops accents', () => assert.equal(slugify('Crème Brûlée'), 'creme-brulee'));
  it('trims leading and trailing separators', () => assert.equal(slugify('  --a b--  '), 'a-b'));
});

describe('truncate', () => {
  it('keeps short text', () => assert.equal(truncate('short', 5), 'short'));
  it('cuts long text to max characters, ellipsis included', () => assert.equal(truncate('abcdefgh', 5), 'abcd…'));
  it('refuses a max below one', () => assert.throws(() => truncate('abc', 0), RangeError));
});

describe('titleCase', () => {
  it('capitalises each word and lowers the rest', () => assert.equal(titleCase('hELLO wORLD'), 'Hello World'));
  it('keeps repeated spaces', () => assert.equal(titleCase('a  b'), 'A  B'));
});

describe('countOccurrences', () => {
  it('counts without overlaps', () => assert.equal(countOccurrences('aaaa', 'aa'), 2));
  it('counts nothing for an empty needle', () => assert.equal(countOccurrences('abc', ''), 0));
});

describe('highlight', () => {
  it('wraps every occurrence, whatever its case', () => assert.equal(highlight('Cat and cat', 'cat'), '[Cat] and [cat]'));
  it('treats the word as literal text', () => assert.equal(highlight('a.b axb', 'a.b', '<', '>'), '<a.b> axb'));
});
