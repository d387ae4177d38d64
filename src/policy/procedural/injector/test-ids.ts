import type { TestSuite } from './test-suite.js';

/** Where a test lives: its file and its dotted name inside it (`TestClass.test_method`, `test_function`; JS: `describe > test`). */
export interface TestLocation {
  file: string;
  /** Classes and function, without parametrize ids: what `extractEntities` calls the qualified name. */
  qualifiedName: string;
  /** A pytest parametrize id (`[a-1]` without brackets), when there is one. */
  param?: string;
}

/**
 * The test file of a test id, or null when the id names no known test file (a module-level
 * error of unittest, a file outside the list). pytest and JS ids start with the path
 * (`tests/test_x.py::Class::test`); unittest ids are dotted from the start dir
 * (`tests.test_x.Class.test`), so the longest dotted prefix that names a listed file wins.
 */
export function testFileOf(id: string, suite: TestSuite, files: ReadonlySet<string>): string | null {
  return locateTest(id, suite, files)?.file ?? null;
}

/** File and in-file name of a test id (see {@link testFileOf}); null when the file is unknown. */
export function locateTest(id: string, suite: TestSuite, files: ReadonlySet<string>): TestLocation | null {
  if (suite.kind === 'js') {
    // `file > describe > test` (Mocha: `file > describe test`, its full title): the file, then the titles.
    const cut = id.indexOf(' > ');
    const file = cut >= 0 ? id.slice(0, cut) : id;
    return files.has(file) ? { file, qualifiedName: cut >= 0 ? id.slice(cut + 3) : '' } : null;
  }
  if (suite.kind === 'pytest') {
    const [file, ...rest] = splitPytestId(id);
    if (file === undefined || !files.has(file)) return null;
    const last = rest.at(-1) ?? '';
    const bracket = last.indexOf('[');
    const names = [...rest.slice(0, -1), bracket >= 0 ? last.slice(0, bracket) : last].filter((n) => n !== '');
    const param = bracket >= 0 && last.endsWith(']') ? last.slice(bracket + 1, -1) : undefined;
    return { file, qualifiedName: names.join('.'), ...(param === undefined ? {} : { param }) };
  }
  const parts = id.split('.');
  const prefix = suite.startDir === '.' ? '' : `${suite.startDir.replace(/\/+$/, '')}/`;
  for (let k = parts.length; k >= 1; k--) {
    const file = `${prefix}${parts.slice(0, k).join('/')}.py`;
    if (files.has(file)) return { file, qualifiedName: parts.slice(k).join('.') };
  }
  return null;
}

// `::` separates the path, classes and the function; a parametrize id may itself contain `::`.
function splitPytestId(id: string): string[] {
  const bracket = id.indexOf('[');
  const head = bracket >= 0 ? id.slice(0, bracket) : id;
  const parts = head.split('::');
  if (bracket >= 0) parts[parts.length - 1] += id.slice(bracket);
  return parts;
}
