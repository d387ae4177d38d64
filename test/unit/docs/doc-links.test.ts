import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGES = ['README.md', 'trainer/README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Relative link targets of a markdown page, code blocks and code spans left out (they show syntax, not links). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

describe('documentation links', () => {
  it('finds the pages: the README, the trainer README and docs/ (method, grading, RL contract, run dir)', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['docs/method.md', 'docs/grading.md', 'docs/rl-contract.md', 'docs/run-dir.md']));
  });

  it('the README links every page of docs/', () => {
    const links = relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    for (const page of PAGES.filter((path) => path.startsWith('docs/'))) expect(links, page).toContain(page);
  });

  it.each(PAGES)('every relative link in %s resolves to a file inside the repo', (page) => {
    const links = relativeLinks(readFileSync(join(ROOT, page), 'utf8'));
    const broken = links.filter((target) => {
      const path = resolve(dirname(join(ROOT, page)), decodeURIComponent(target.split('#')[0]!));
      const inside = !relative(ROOT, path).startsWith('..');
      return !inside || !existsSync(path) || /(^|\/)(node_modules|dist)\//.test(relative(ROOT, path));
    });
    expect(broken).toEqual([]);
  });

  it('reads links the way a markdown viewer does', () => {
    expect(relativeLinks('see [a](docs/a.md), [b](https://x.y/b.md), [c](#c), `[d](no.md)` and [e](../e.md "t")')).toEqual(['docs/a.md', '../e.md']);
  });
});
