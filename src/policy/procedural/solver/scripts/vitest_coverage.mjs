// The procedural Solver's per-test line coverage under Vitest, one file in two roles.
//
// Run with node (from the repository root): `node vitest_coverage.mjs OUT [test files...]` runs
// those test files once through Vitest's Node API (Vitest's CLI has no flag for a setup file),
// from the repository's own node_modules and with its config, plus this file as a setup file.
//
// As a setup file, in each Vitest worker: Vitest loads code through vite-node (TypeScript
// stripped, imports rewritten), so plain V8 coverage has offsets into transformed code. This takes
// V8's precise block coverage after every test through the inspector (taking it resets the
// counts, so each take is one test's), reads each code module's transformed source and inline
// source map, and maps the ranges that ran back to the lines of the original file. It writes one
// JSON line per test to OUT/<pid>-<thread>.jsonl:
//   {"id": "test/a.test.ts > suite > test", "lines": {"src/a.ts": [3, 4, 9]}}
// and, per test file, the lines that ran while it was imported: {"import": {"src/a.ts": [1, 2]}}.
// A line counts as run when the innermost V8 range that holds its first mapped character ran.
import { appendFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

const OUT = process.env.SSR_VITEST_COVERAGE_OUT;
const ROOT = process.cwd();
const SELF = fileURLToPath(import.meta.url);
// A Vitest worker holds its state in this global before it loads setup files. (Not VITEST_WORKER_ID:
// a process that Vitest's own tests start inherits that variable.)
const IN_WORKER = globalThis.__vitest_worker__ !== undefined;

async function startVitest([out, ...files]) {
  if (!out) {
    console.error('usage: node vitest_coverage.mjs OUT [test files...]');
    process.exit(2);
  }
  process.env.SSR_VITEST_COVERAGE_OUT = out;
  let entry;
  try {
    entry = createRequire(join(ROOT, 'package.json')).resolve('vitest/node');
  } catch {
    entry = join(ROOT, 'node_modules', 'vitest', 'dist', 'node.js');
  }
  const vitest = await import(pathToFileURL(entry).href);
  const run = await vitest.startVitest('test', files, { run: true, watch: false, color: false, setupFiles: [SELF], reporters: ['dot'] });
  await run?.close();
  process.exit(0);
}

let post;

async function installHooks() {
  // Imported here: the Node process that starts Vitest cannot resolve 'vitest' from this file's folder.
  const { afterEach, beforeAll, beforeEach } = await import('vitest');
  const session = new Session();
  session.connect();
  post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Debugger.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  // What ran while the test file imported its modules: module constants, default arguments.
  beforeAll(async () => write({ import: await take() }));
  beforeEach(async () => {
    await take();
  });
  afterEach(async (context) => write({ id: testId(context.task), lines: await take() }));
}

/** {scriptId: [[offset, line]] | null}: each original line's first mapped character in the script. */
const points = new Map();

function repoFile(url) {
  let path = url;
  if (path.startsWith('file://')) path = fileURLToPath(path);
  // This hook runs in every test too: it is never one of the repository's code files.
  if (!isAbsolute(path) || path === SELF) return null;
  const rel = relative(ROOT, path);
  return rel.startsWith('..') || rel.split('/').includes('node_modules') ? null : rel;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One source map segment's numbers (base64 VLQ). */
function vlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = B64.indexOf(char);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value % 2 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** [[offset in `source`, original line]] for the first mapped character of each original line. */
function linePoints(source) {
  const match = /\/\/# sourceMappingURL=data:application\/json;(?:charset=[\w-]+;)?base64,([A-Za-z0-9+/=]+)/.exec(source);
  if (!match) return null;
  const map = JSON.parse(Buffer.from(match[1], 'base64').toString('utf8'));
  // vite-node runs the module inside a wrapper on its first line: the map's columns there start after it.
  const wrapper = /^'use strict';async \([^)]*\)=>\{\{/.exec(source);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const first = new Map();
  let sourceIndex = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  map.mappings.split(';').forEach((segments, generatedLine) => {
    let generatedColumn = 0;
    for (const segment of segments.split(',')) {
      if (!segment) continue;
      const [column, index, line, col] = vlq(segment);
      generatedColumn += column;
      if (index === undefined) continue;
      sourceIndex += index;
      sourceLine += line;
      sourceColumn += col;
      if (sourceIndex !== 0 || generatedLine >= lineStarts.length) continue;
      const offset = lineStarts[generatedLine] + generatedColumn + (generatedLine === 0 && wrapper ? wrapper[0].length : 0);
      const seen = first.get(sourceLine);
      if (!seen || sourceColumn < seen.column) first.set(sourceLine, { column: sourceColumn, offset });
    }
  });
  return [...first].map(([line, { offset }]) => [offset, line + 1]);
}

/** {file: [lines]} that ran in one coverage take. */
async function take() {
  const { result } = await post('Profiler.takePreciseCoverage');
  const out = {};
  for (const script of result) {
    const rel = repoFile(script.url);
    if (!rel) continue;
    if (!points.has(script.scriptId)) {
      const { scriptSource } = await post('Debugger.getScriptSource', { scriptId: script.scriptId });
      points.set(script.scriptId, linePoints(scriptSource));
    }
    const rows = points.get(script.scriptId);
    if (!rows) continue;
    const ranges = script.functions.flatMap((fn) => fn.ranges).sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
    const ran = new Set();
    for (const [offset, line] of rows) {
      // Larger ranges first, so the last one holding the offset is the innermost.
      let count = 0;
      for (const range of ranges) if (range.startOffset <= offset && offset < range.endOffset) count = range.count;
      if (count > 0) ran.add(line);
    }
    if (ran.size > 0) out[rel] = [...ran].sort((a, b) => a - b);
  }
  return out;
}

function write(record) {
  if (!OUT) return;
  mkdirSync(OUT, { recursive: true });
  appendFileSync(join(OUT, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(record)}\n`);
}

function testId(task) {
  const names = [task.name];
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) if (suite.name) names.unshift(suite.name);
  return [relative(ROOT, task.file.filepath), ...names].join(' > ');
}

if (IN_WORKER) await installHooks();
else await startVitest(process.argv.slice(2));
