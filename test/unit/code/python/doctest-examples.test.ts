import { describe, expect, it } from 'vitest';
import { doctestDocstrings, doctestExampleLines } from '../../../../src/code/python/doctest-examples.js';

const MODULE = [
  '"""Module doc.', //                      1
  '', //                                    2
  '>>> add(1, 2)', //                       3
  '3', //                                   4
  '"""', //                                 5
  '', //                                    6
  'def add(a, b):', //                      7
  '    """Add two numbers.', //             8
  '', //                                    9
  '        >>> def twice(x):', //           10
  '        ...     return add(x, x)', //    11
  '        ...', //                         12
  '        >>> [twice(n)', //               13
  '        ...  for n in (1, 2)]', //       14
  '        [2,', //                         15
  '         4]', //                         16
  '', //                                    17
  '    Prose after a blank line.', //       18
  '        >>> add(0, 0)', //               19
  '        0"""', //                        20
  '    return a + b', //                    21
  '', //                                    22
  'PROMPT = ">>> not a docstring"', //      23
  '',
].join('\n');

describe('doctestExampleLines', () => {
  it('marks prompts, continuations and expected output, and nothing else', () => {
    expect([...doctestExampleLines(MODULE)].sort((a, b) => a - b)).toEqual([3, 4, 10, 11, 12, 13, 14, 15, 16, 19, 20]);
  });

  it('ends an example at a blank line: prose after it is no output', () => {
    expect(doctestExampleLines(MODULE).has(18)).toBe(false);
  });

  it('ignores `>>>` in a string that is part of code (an assignment)', () => {
    expect(doctestExampleLines(MODULE).has(23)).toBe(false);
  });

  it('treats "..." after output as output (an ellipsis), not as a continuation', () => {
    const source = 'def f():\n    """\n    >>> list(range(99))\n    [0, 1,\n    ...]\n    """\n';
    expect(doctestDocstrings(source)[0]!.examples).toEqual([{ start: 3, end: 5 }]);
  });

  it('groups examples by docstring', () => {
    const docstrings = doctestDocstrings(MODULE);
    expect(docstrings.map((d) => [d.startLine, d.endLine, d.examples.length])).toEqual([[1, 5, 1], [8, 20, 3]]);
  });

  it('finds nothing in a module without examples', () => {
    expect(doctestExampleLines('def f():\n    """No examples."""\n    return 1\n').size).toBe(0);
  });
});
