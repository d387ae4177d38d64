import { describe, expect, it } from 'vitest';
import { repoRelativePath } from '../../../src/workspace/repo-path.js';

describe('repoRelativePath', () => {
  it.each([
    ['src/a.py', 'src/a.py'],
    ['./src//a.py', 'src/a.py'],
    ['/repo/src/a.py', 'src/a.py'],
    ['src/pkg/', 'src/pkg'],
    ['src/../setup.py', 'setup.py'],
    ['weird name [1].py', 'weird name [1].py'],
    ['.github/x.yml', '.github/x.yml'],
  ])('%j → %j', (input, expected) => {
    expect(repoRelativePath(input)).toBe(expected);
  });

  it.each([
    ['../outside', /leaves the repository/],
    ['src/../../etc/passwd', /leaves the repository/],
    ['/etc/passwd', /under \/repo/],
    ['/repository/x', /under \/repo/],
    ['.', /root/],
    ['/repo/', /under \/repo|root/],
    ['.git/config', /\.git/],
    ['.git', /\.git/],
    ['a\nb', /newline/],
    ['a\0b', /NUL/],
  ])('rejects %j', (input, message) => {
    expect(() => repoRelativePath(input)).toThrow(message);
  });
});
