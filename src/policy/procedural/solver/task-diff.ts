import { isDiffParseError } from '../../../code/diff-parse-error.js';
import type { ParsedDiff } from '../../../code/diff-types.js';
import { parseUnifiedDiff } from '../../../code/unified-diff.js';

/** A test the task diff adds, or changes (re-added assertions). */
export interface TaskTest {
  file: string;
  name: string;
  /** 1-based line of its `def` in the new file (of the nearest `def` above, for a change). */
  line: number;
  change: 'added' | 'modified';
}

/** The Solver's task: the diff its prompt asks it to make pass. */
export interface TaskDiff {
  /** The diff text, ending with a newline, ready for `git apply`. */
  text: string;
  parsed: ParsedDiff;
  /** Files the diff leaves behind (new paths), in diff order. */
  files: string[];
  tests: TaskTest[];
}

const FENCE = /^```/;
const DEF = /^\s*(?:async\s+)?def\s+(\w+)\s*\(/;
// A JS/TS test: `it('name', …)` / `test("name", …)`, with `.only` / `.skip` / `.todo`; the name stands in for a `test…` function's.
const JS_TEST = /^\s*(?:it|test)(?:\.\w+)?\s*\(\s*(['"`])(.+?)\1/;

/**
 * Find the diff in a task prompt: the first fenced block (```diff or bare ```) that parses as a
 * diff with at least one file, else the text from the first `diff --git` line up to the next
 * fence. Null when the prompt holds no usable diff.
 */
export function extractTaskDiff(prompt: string): TaskDiff | null {
  const lines = prompt.split('\n');
  const blocks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const end = lines.findIndex((line, j) => j > i && line.trimEnd() === '```');
    if (end < 0) break;
    blocks.push(lines.slice(i + 1, end));
    i = end;
  }
  const start = lines.findIndex((line) => line.startsWith('diff --git '));
  if (start >= 0) {
    const end = lines.findIndex((line, j) => j > start && FENCE.test(line));
    blocks.push(lines.slice(start, end < 0 ? undefined : end));
  }
  for (const block of blocks) {
    const found = readDiff(`${block.join('\n').replace(/\n+$/, '')}\n`);
    if (found) return found;
  }
  return null;
}

function readDiff(text: string): TaskDiff | null {
  let parsed: ParsedDiff;
  try {
    parsed = parseUnifiedDiff(text);
  } catch (error) {
    if (isDiffParseError(error)) return null;
    throw error;
  }
  if (parsed.files.length === 0) return null;
  const files = parsed.files.flatMap((file) => (file.newPath === null ? [] : [file.newPath]));
  return { text, parsed, files, tests: taskTests(parsed) };
}

/**
 * Tests named by the diff: every added `def test…` line (`it('…'` / `test('…'` in a JS/TS file),
 * and for hunks that add lines inside an existing test, the nearest such line above them (from
 * the hunk's lines or its heading).
 */
export function taskTests(parsed: ParsedDiff): TaskTest[] {
  const tests: TaskTest[] = [];
  const seen = new Set<string>();
  const add = (test: TaskTest): void => {
    const key = `${test.file}::${test.name}`;
    if (seen.has(key)) return;
    seen.add(key);
    tests.push(test);
  };
  for (const file of parsed.files) {
    if (file.newPath === null) continue;
    const python = /\.py$/.test(file.newPath);
    const testName = python ? pythonTest : jsTest;
    for (const hunk of file.hunks) {
      let line = hunk.newStart;
      let current: { name: string; line: number } | null = null;
      const heading = testName(hunk.heading);
      if (heading) current = { name: heading, line: hunk.newStart };
      for (const text of hunk.lines) {
        const op = text[0];
        if (op === '-' || op === '\\') continue;
        const def = (python ? DEF : JS_TEST).exec(text.slice(1));
        const name = testName(text.slice(1));
        if (def) current = name ? { name, line } : null;
        if (op === '+' && current) add({ file: file.newPath, name: current.name, line: current.line, change: def && current.line === line ? 'added' : 'modified' });
        line++;
      }
    }
  }
  return tests;
}

function pythonTest(line: string): string | undefined {
  const name = DEF.exec(line)?.[1];
  return name?.startsWith('test') ? name : undefined;
}

function jsTest(line: string): string | undefined {
  return JS_TEST.exec(line)?.[2];
}
