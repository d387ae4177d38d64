import { posix } from 'node:path';

/**
 * Files a JS runner's configuration names as machinery: setup files, global setup and teardown,
 * reporters, environments, sequencers, resolvers, transforms, `--require` hooks. A Solver's patch
 * may not change them (method §4), whatever they are called: `setupFiles: ['./tools/x.ts']` makes
 * tools/x.ts as much a part of the runner as vitest.config.ts itself, and conventional names
 * (js-runner-files.ts) do not catch it. The config read is the ORIGINAL tree's, never the patched
 * one: a patch that also edits the config cannot move the protection elsewhere.
 *
 * Read by pattern, not by evaluating the config (it is code): every string in the value of a key
 * below that looks like a path (`./x`, `../x`, `<rootDir>/x`, or a name ending in a JS / TS
 * extension) counts, relative to the config's folder; package names (`jsdom`, `default`) do not.
 */

/** Runner configs that can name files: Jest, Vitest / Vite, Mocha, node-tap, and package.json's "jest" / "mocha" / "tap" fields. */
const CONFIG = /^(?:(?:jest|vitest|vite)\.config\.[cm]?[jt]s|jest\.config\.json|vitest\.(?:workspace|projects)\.[a-z]+|\.mocharc(?:\.[a-z]+)?|\.taprc|package\.json)$/i;

/** Keys whose values name files the runner loads as machinery (Jest, Vitest, Mocha, node-tap spellings). */
const KEYS = [
  'setupFiles', 'setupFilesAfterEnv', 'setupFilesAfterEach', 'globalSetup', 'globalTeardown', 'reporters', 'reporter',
  'testEnvironment', 'environment', 'snapshotResolver', 'testResultsProcessor', 'testSequencer', 'sequencer', 'resolver',
  'runner', 'testRunner', 'transform', 'preset', 'watchPlugins', 'require', 'file', 'node-arg', 'before', 'after', 'test-env',
];
const KEY = new RegExp(`(?:^|[\\s{,(])["']?(${KEYS.map((key) => key.replace('-', '\\-')).join('|')})["']?\\s*[:=]`, 'g');
const STRING = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
const JS_EXTENSION = /\.[cm]?[jt]sx?$/;
const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx'];

/** Whether a repo path is a runner config this module reads (none under node_modules/). */
export function isFileNamingConfig(path: string): boolean {
  const parts = path.split('/');
  return !parts.includes('node_modules') && CONFIG.test(parts.at(-1) ?? '');
}

/** The end of a bracketed value starting at `start` (`[` or `{`), string literals skipped. */
function closing(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at += 1) {
    const char = text[at]!;
    if (char === '"' || char === "'" || char === '`') {
      const end = text.indexOf(char, at + 1);
      if (end < 0) return text.length;
      at = end;
    } else if (char === '[' || char === '{' || char === '(') depth += 1;
    else if (char === ']' || char === '}' || char === ')') {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return text.length;
}

/** The text of the value after a key's `:` / `=`: a bracketed value, a YAML list, or the rest of the line. */
function valueText(text: string, from: number): string {
  const rest = text.slice(from);
  const lead = rest.length - rest.trimStart().length;
  const first = rest[lead];
  if (first === '[' || first === '{' || first === '(') return rest.slice(lead, closing(rest, lead));
  const line = rest.split('\n', 1)[0]!;
  if (line.trim() !== '') return line;
  // YAML: a block list (`require:` then `  - ./x.js` lines).
  const items: string[] = [];
  for (const next of rest.split('\n').slice(1)) {
    if (/^\s*-\s/.test(next)) items.push(next.replace(/^\s*-\s*/, ''));
    else if (next.trim() !== '') break;
  }
  return items.join('\n');
}

/** The strings in a value: quoted literals, else (YAML / .taprc) the bare scalars. */
function strings(value: string): string[] {
  const quoted = [...value.matchAll(STRING)].map((match) => match[2]!);
  if (quoted.length > 0) return quoted;
  return value.split(/[\n,[\]]/).map((item) => item.trim().replace(/^-\s*/, '')).filter((item) => item !== '');
}

function looksLikePath(text: string): boolean {
  if (/\s/.test(text) || text.includes('*') || text.includes('$')) return false;
  return text.startsWith('./') || text.startsWith('../') || text.startsWith('<rootDir>/') || (JS_EXTENSION.test(text) && !text.startsWith('/'));
}

/** The repo paths one named file may be: itself, and for a name without extension each JS / TS file and index file. */
function candidates(path: string): string[] {
  if (JS_EXTENSION.test(path) || /\.[a-z]+$/i.test(posix.basename(path))) return [path];
  return [path, ...EXTENSIONS.map((ext) => path + ext), ...EXTENSIONS.map((ext) => `${path}/index${ext}`)];
}

/** package.json's fields that configure a runner (its "exports" / "imports" name the package's own code, not machinery). */
const PACKAGE_FIELDS = ['jest', 'mocha', 'tap', 'ava', 'c8', 'nyc'];

/** The text to scan: a package.json's runner fields only (as JSON), any other config whole. */
function scanned(configPath: string, text: string): string {
  if (posix.basename(configPath) !== 'package.json') return text;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return '';
  }
  if (typeof pkg !== 'object' || pkg === null) return '';
  return PACKAGE_FIELDS.map((field) => JSON.stringify((pkg as Record<string, unknown>)[field] ?? null, null, 1)).join('\n');
}

/** The repo-relative files one config names as runner machinery. */
export function namedFiles(configPath: string, original: string): string[] {
  const dir = posix.dirname(configPath);
  const found = new Set<string>();
  const text = scanned(configPath, original);
  for (const match of text.matchAll(KEY)) {
    for (const raw of strings(valueText(text, match.index + match[0].length))) {
      if (!looksLikePath(raw)) continue;
      const relative = raw.replace(/^<rootDir>\//, './');
      const path = posix.normalize(posix.join(dir, relative));
      if (path.startsWith('../') || path === '..' || path.startsWith('/')) continue;
      for (const candidate of candidates(path)) found.add(candidate);
    }
  }
  return [...found].sort();
}

/** Every file the given configs (path and ORIGINAL text) name as runner machinery. */
export function runnerNamedFiles(configs: ReadonlyArray<{ path: string; text: string }>): Set<string> {
  return new Set(configs.flatMap((config) => namedFiles(config.path, config.text)));
}
