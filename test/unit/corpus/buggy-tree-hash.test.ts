import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buggyTreeHash } from '../../../src/corpus/buggy-tree-hash.js';

let repo: string;
const git = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
const lines = (n: number, change: Record<number, string> = {}): string =>
  Array.from({ length: n }, (_, i) => change[i + 1] ?? `line ${i + 1}`).join('\n') + '\n';

/** Real `git diff` output of a working-tree change, with extra diff options. */
function diffOf(files: Record<string, string>, ...options: string[]): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  const out = git('diff', ...options);
  git('checkout', '--', '.');
  return out;
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'ssr-tree-hash-'));
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(join(repo, 'a.py'), lines(30));
  writeFileSync(join(repo, 'b.py'), lines(10));
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const hash = (bugInject: string, repoId = 'r', commit = 'c') => buggyTreeHash({ repo: repoId, commit, bugInject });

describe('buggyTreeHash', () => {
  const edit = { 'a.py': lines(30, { 10: 'changed', 12: 'also changed' }), 'b.py': lines(10, { 2: 'b changed' }) };

  it('is tree- and 16 hex chars', () => {
    expect(hash(diffOf(edit))).toMatch(/^tree-[0-9a-f]{16}$/);
  });

  it.each([
    ['more context', ['-U8']],
    ['less context (one hunk becomes two)', ['-U0']],
    ['full index lines', ['--full-index']],
    ['patience alignment', ['--patience']],
  ])('agrees for one edit written with %s', (_name, options) => {
    expect(hash(diffOf(edit, ...options))).toBe(hash(diffOf(edit)));
  });

  it('agrees without index lines and hunk headings', () => {
    const diff = diffOf(edit, '--function-context');
    const bare = diff.replace(/^index .*\n/gm, '').replace(/^(@@ [^@]+ @@).*$/gm, '$1');
    expect(bare).not.toBe(diff);
    expect(hash(bare)).toBe(hash(diffOf(edit)));
  });

  it('agrees when files come in another order', () => {
    const diff = diffOf(edit);
    const at = diff.indexOf('diff --git a/b.py');
    expect(hash(diff.slice(at) + diff.slice(0, at))).toBe(hash(diff));
  });

  it.each([
    ['another repo', (d: string) => hash(d, 'other')],
    ['another commit', (d: string) => hash(d, 'r', 'c2')],
    ['another edit', () => hash(diffOf({ 'a.py': lines(30, { 10: 'changed!', 12: 'also changed' }), 'b.py': edit['b.py'] }))],
    ['the same text at another line', () => hash(diffOf({ 'a.py': lines(30, { 11: 'changed', 12: 'also changed' }), 'b.py': edit['b.py'] }))],
    ['one file fewer', () => hash(diffOf({ 'a.py': edit['a.py'] }))],
    ['a missing final newline', () => hash(diffOf({ ...edit, 'b.py': edit['b.py'].slice(0, -1) }))],
  ])('differs for %s', (_name, other) => {
    const diff = diffOf(edit);
    expect(other(diff)).not.toBe(hash(diff));
  });

  it('hashes a diff that does not parse as its text', () => {
    expect(hash('@@ garbage')).toMatch(/^tree-/);
    expect(hash('@@ garbage')).not.toBe(hash('@@ other garbage'));
  });
});
