import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGES = ['README.md', 'trainer/README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Relative link targets of a markdown page (a bare `#anchor` included), code blocks and code spans left out (they show syntax, not links). */
function relativeLinks(markdown: string, anchors = false): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && (anchors || !target.startsWith('#')));
}

/** The anchors a markdown viewer gives a page's headings (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = match[1]!.replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
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

  it.each(PAGES)('every #anchor of a link in %s names a heading of its page', (page) => {
    const links = relativeLinks(readFileSync(join(ROOT, page), 'utf8'), true).filter((target) => target.includes('#'));
    const dangling = links.filter((target) => {
      const [file, anchor] = target.split('#') as [string, string];
      const path = file === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(file));
      return !existsSync(path) || !headingAnchors(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor));
    });
    expect(dangling).toEqual([]);
  });

  it('reads headings the way a markdown viewer anchors them', () => {
    expect([...headingAnchors('# A `b` page\n## 5. Rewards\n```\n# not a heading\n```\n## Running an export with SWE-bench-style tools\n## 5. Rewards\n')]).toEqual(['a-b-page', '5-rewards', 'running-an-export-with-swe-bench-style-tools', '5-rewards-1']);
  });

  it('reads links the way a markdown viewer does', () => {
    expect(relativeLinks('see [a](docs/a.md), [b](https://x.y/b.md), [c](#c), `[d](no.md)` and [e](../e.md "t")')).toEqual(['docs/a.md', '../e.md']);
  });
});
