import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The method lives in the repo: code and docs cite docs/method.md as "method §N", and nothing in the
 * project points at a document a clone does not have (the team's spec, a sibling checkout).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SELF = 'test/unit/docs/method-references.test.ts';

/** Words and paths that name something outside the repo. Built from parts so this file does not match itself. */
const OUTSIDE: readonly RegExp[] = [
  new RegExp(`\\b${'SP'}EC\\b`),
  new RegExp(`\\b${'ARCHI'}TECTURE\\b`),
  new RegExp(`\\.\\./${'sha'}red\\b`),
  new RegExp(`/work/(${'sha'}red|main|wt)\\b`),
];

/** Every file a clone (or this worktree) holds: tracked and new, .gitignore respected. */
function repoFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return listed.split('\0').filter((path) => path && path !== SELF && existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile());
}

/** A file's text, or undefined for binary content (git bundles, images). */
function textOf(path: string): string | undefined {
  const bytes = readFileSync(join(ROOT, path));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

/** Section numbers that docs/method.md defines: "## 3. Validation" gives 3, "### 3.5 Failing tests" gives 3.5. */
function methodSections(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((match) => match[1]!));
}

/** Section numbers a text cites: "method §3.5", and lists such as "method §5, §6" or "method §2 and §7". */
function citedSections(text: string): string[] {
  const cited: string[] = [];
  for (const match of text.matchAll(/method §(\d+(?:\.\d+)*)((?:(?:,\s*|\s+and\s+|\s*\/\s*)§\d+(?:\.\d+)*)*)/g)) {
    cited.push(match[1]!, ...[...match[2]!.matchAll(/§(\d+(?:\.\d+)*)/g)].map((more) => more[1]!));
  }
  return cited;
}

/** The outside references in a text, as "line N: text". */
function outsideMentions(text: string): string[] {
  return text.split('\n').flatMap((line, index) => (OUTSIDE.some((pattern) => pattern.test(line)) ? [`line ${index + 1}: ${line.trim()}`] : []));
}

describe('the method lives in the repo', () => {
  const files = repoFiles();
  const sections = methodSections(readFileSync(join(ROOT, 'docs/method.md'), 'utf8'));

  it('docs/method.md numbers every section the code cites (1 to 10, checks 3.1 to 3.7)', () => {
    for (const number of ['1', '2', '3', '3.1', '3.5', '3.7', '4', '5', '6', '7', '8', '9', '10']) expect(sections, number).toContain(number);
  });

  it('no file mentions the team spec or a path outside the repo', () => {
    const found = files.flatMap((path) => outsideMentions(textOf(path) ?? '').map((mention) => `${path} ${mention}`));
    expect(found).toEqual([]);
  });

  it('every "method §N" names a section of docs/method.md', () => {
    const dangling = files.flatMap((path) => citedSections(textOf(path) ?? '').filter((number) => !sections.has(number)).map((number) => `${path}: method §${number}`));
    expect(dangling).toEqual([]);
    expect(files.filter((path) => citedSections(textOf(path) ?? '').length > 0).length).toBeGreaterThan(50);
  });

  it('reads citations and outside mentions the way the checks above need', () => {
    expect(citedSections('see method §3.5, and (method §5, §6) or method §2 and §7; method §8.')).toEqual(['3.5', '5', '6', '2', '7', '8']);
    expect(methodSections('## 3. Validation\n### 3.5 Failing tests\n## Related work\n')).toEqual(new Set(['3', '3.5']));
    expect(outsideMentions(`ok\nsee ${'SP'}EC §4\n../${'sha'}red/x.md\n_${'SP'}ECIAL and ${'SP'}ECTRUM`)).toEqual([`line 2: see ${'SP'}EC §4`, `line 3: ../${'sha'}red/x.md`]);
  });
});
