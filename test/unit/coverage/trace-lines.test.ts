import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceLinesPath } from '../../../src/coverage/trace-script.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'trace-lines');
const REFERENCE = join(FIXTURE, 'reference_trace_lines.py');
/** Debian's python3 with its pytest (as the images run it). */
const PYTHON = '/usr/bin/python3';

let dir: string;

/** A tracer's map of the fixture repo (`runner`: unittest, or pytest with its broad fixtures) and how many times its trace functions were called. */
function trace(script: string, name: string, runner: string[]): { map: string; events: number } {
  const map = join(dir, `${name}.txt`);
  const run = spawnSync(PYTHON, [join(FIXTURE, 'count_events.py'), script, join(FIXTURE, 'files.txt'), '--map', map, ...runner], {
    cwd: join(dir, 'repo'),
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  expect(run.status, run.stderr).toBe(0);
  return { map: readFileSync(map, 'utf8'), events: Number(/@@events (\d+)/.exec(run.stderr)?.[1]) };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-trace-lines-'));
  cpSync(join(FIXTURE, 'repo'), join(dir, 'repo'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const UNITTEST = ['unittest', 'discover', '-s', '.'];
const PYTEST = ['pytest', '-q', '-p', 'no:cacheprovider', 'tests'];

describe('trace_lines.py against the reference tracer (hot loops, untaken branches, a generator resumed by another test file, a thread)', () => {
  it('writes the same per-test-file map with fewer trace-function calls (unittest)', () => {
    const reference = trace(REFERENCE, 'reference', UNITTEST);
    const current = trace(traceLinesPath(), 'current', UNITTEST);
    expect(reference.map).toContain('@@trace ok 6');
    expect(current.map).toBe(reference.map);
    expect(current.events).toBeLessThan(reference.events * 0.8);
  });

  it('writes the same map under pytest: broad fixtures, and two empty __init__.py whose code objects compare equal', () => {
    const reference = trace(REFERENCE, 'reference-pytest', PYTEST);
    const current = trace(traceLinesPath(), 'current-pytest', PYTEST);
    expect(reference.map).toContain('@@trace ok 9');
    expect(reference.map).toContain('@@tcov pkg/__init__.py 0 *');
    expect(current.map).toBe(reference.map);
  });
});
