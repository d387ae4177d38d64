import { describe, expect, it } from 'vitest';
import { parseQuery, stringifyQuery, withQuery } from '../src/query-string';

describe('parseQuery', () => {
  it('reads pairs, repeated keys and bare keys', () => {
    expect({ ...parseQuery('?a=1&b=2&b=3&flag') }).toEqual({ a: '1', b: ['2', '3'], flag: '' });
  });

  it('decodes escapes and + as a space', () => {
    expect({ ...parseQuery('q=caf%C3%A9+au+lait&x%20y=1') }).toEqual({ q: 'café au lait', 'x y': '1' });
  });

  it('makes an array of a key[] even with one value', () => {
    expect({ ...parseQuery('tag[]=a') }).toEqual({ tag: ['a'] });
    expect({ ...parseQuery('tag[]=a&tag[]=b&tag=c') }).toEqual({ tag: ['a', 'b', 'c'] });
  });

  it('keeps a broken escape as written', () => {
    expect({ ...parseQuery('p=100%&q=%zz') }).toEqual({ p: '100%', q: '%zz' });
  });

  it('skips empty pairs and keeps = inside values', () => {
    expect({ ...parseQuery('a=1&&b=x=y&') }).toEqual({ a: '1', b: 'x=y' });
  });

  it('is not fooled by keys named like Object.prototype members', () => {
    const query = parseQuery('constructor=1&__proto__=2');
    expect(query.constructor).toBe('1');
    expect(Object.keys(query)).toEqual(['constructor', '__proto__']);
  });
});

describe('stringifyQuery', () => {
  it('sorts keys, repeats array keys and encodes', () => {
    expect(stringifyQuery({ b: ['x', 'y z'], a: 1, c: true })).toBe('a=1&b=x&b=y%20z&c=true');
  });

  it('leaves out undefined and empty arrays, writes null as a bare key', () => {
    expect(stringifyQuery({ a: undefined, b: [], c: null, d: 0 })).toBe('c&d=0');
  });

  it('keeps insertion order when asked and writes brackets', () => {
    expect(stringifyQuery({ z: 1, a: [2, 3] }, { sort: false, brackets: true })).toBe('z=1&a[]=2&a[]=3');
  });

  it('round-trips through parseQuery', () => {
    const object = { name: 'Ada Lovelace', langs: ['en', 'fr'], empty: '' };
    expect({ ...parseQuery(stringifyQuery(object)) }).toEqual(object);
  });
});

describe('withQuery', () => {
  it('merges parameters into the URL and keeps the fragment', () => {
    expect(withQuery('/search?q=old&page=2#results', { q: 'new', lang: 'en' })).toBe('/search?lang=en&page=2&q=new#results');
  });

  it('drops the ? when nothing is left', () => {
    expect(withQuery('/home?x=1', { x: undefined })).toBe('/home');
  });
});
