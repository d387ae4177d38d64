import { describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../../../src/policy/procedural/injector/read-text-file.js';
import { groupsOfAPage, parseFiles } from '../../../../src/policy/procedural/injector/read-text-files.js';

const printed = (files: Array<[string, string | null]>): string =>
  files.map(([path, text]) => (text === null ? `@@NOFILE ${path}\n` : `@@FILE ${Buffer.byteLength(text)} ${path}\n${text}\n`)).join('') + '@@END';

describe('reading several small files in one call', () => {
  it('puts each file that fits a page into the first call with room for it; a large or unsized file goes alone', () => {
    const groups = groupsOfAPage([
      { path: 'a.py', bytes: 6000 }, { path: 'b.py', bytes: 6000 }, { path: 'c.py', bytes: 6000 },
      { path: 'big.py', bytes: PAGE_BYTES }, { path: 'd.py', bytes: 100 }, { path: 'unsized.py' }, { path: 'e.py', bytes: 9000 },
    ]);
    expect(groups.map((group) => group.map((file) => file.path))).toEqual([['a.py', 'b.py', 'd.py'], ['c.py', 'e.py'], ['big.py'], ['unsized.py']]);
  });

  it('reads each file back exactly by its size, whatever it holds', () => {
    const files: Array<[string, string | null]> = [['x y.py', '@@FILE 3 z.py\nabc\n@@END\n'], ['ü.py', 'ß = 1'], ['empty.py', ''], ['gone.py', null]];
    expect(Object.fromEntries(parseFiles(printed(files))!)).toEqual(Object.fromEntries(files));
  });

  it.each([
    ['cut by the tool', (text: string) => text.replace('ß = 1', 'ß\n[... 10 bytes cut from the middle of 20,000 bytes of output; narrow it ...]\n')],
    ['without its end', (text: string) => text.replace(/@@END$/, '')],
    ['a size that misses its file', (text: string) => text.replace('@@FILE 6 ', '@@FILE 5 ')],
  ])('is null when the output is %s', (_name, spoil) => {
    expect(parseFiles(spoil(printed([['a.py', 'ß = 1'], ['b.py', 'x\n']])))).toBeNull();
  });
});
