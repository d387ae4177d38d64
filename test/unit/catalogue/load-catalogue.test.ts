import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue, parseCatalogueEntry } from '../../../src/catalogue/load-catalogue.js';

describe('the catalogue (catalogue/*.yaml)', () => {
  const entries = loadCatalogue(join(__dirname, '../../../catalogue'));

  it('holds at least 12 real projects that vary in test style, suite time and history', () => {
    expect(entries.length).toBeGreaterThanOrEqual(12);
    expect(new Set(entries.filter((e) => e.test.runner === 'pytest').map((e) => e.style))).toEqual(new Set(['pytest', 'unittest', 'doctest']));
    expect(new Set(entries.map((e) => e.history))).toEqual(new Set(['single-commit', 'upstream']));
    const times = entries.map((e) => e.measured.clean_suite_s);
    expect(Math.min(...times)).toBeLessThan(1);
    expect(Math.max(...times)).toBeGreaterThan(60);
  });

  it('holds at least 3 JavaScript projects from npm, each with its lockfile pinned beside the catalogue', () => {
    const npm = entries.filter((e) => e.source.type === 'npm');
    expect(npm.length).toBeGreaterThanOrEqual(3);
    for (const e of npm) {
      expect(e.test.runner, e.id).not.toBe('pytest');
      expect(existsSync(join(__dirname, '../../../catalogue/npm-locks', `${e.id}.package-lock.json`)), e.id).toBe(true);
    }
  });

  it('gives a suite slower than the default test limit a limit of its own', () => {
    for (const e of entries) if (e.measured.clean_suite_s > 45) expect(e.limits.test_timeout_s, e.id).toBeGreaterThan(2 * e.measured.clean_suite_s);
  });

  const rest = 'description: d\nstyle: pytest\nhistory: single-commit\nmeasured: { passing: 1, failing: 0, clean_suite_s: 1, on: t }\n';
  const debian = 'source: { type: debian, package: python3-x, version: "1", paths: [x] }\n';
  it.each([
    ['an id that differs from the file name', `id: other\n${debian}${rest}`, /x\.yaml: id "other" must match the file name/],
    ['an unknown source type', `id: x\nsource: { type: pypi }\n${rest}`, /x\.yaml: source\.type/],
    ['broken YAML', 'id: [x\n', /x\.yaml: broken YAML/],
  ])('refuses %s, naming the file', (_name, text, message) => {
    const file = join(mkdtempSync(join(tmpdir(), 'ssr-catalogue-')), 'x.yaml');
    writeFileSync(file, text);
    expect(() => parseCatalogueEntry(text, file)).toThrow(message);
    expect(parseCatalogueEntry(`id: x\n${debian}${rest}`, file).id).toBe('x');
  });
});
