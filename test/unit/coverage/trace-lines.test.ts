import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceLinesPath } from '../../../src/coverage/trace-script.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'trace-lines');
const REFERENCE = join(FIXTURE, 'reference_trace_lines.py');

let dir: string;

/** A tracer's map of the fixture repo (unittest, host python3) and how many times its trace functions were called. */
function trace(script: string, name: string): { map: string; events: number } {
  const map = join(dir, `${name}.txt`);
  const run = spawnSync('python3', [join(FIXTURE, 'count_events.py'), script, join(FIXTURE, 'files.txt'), '--map', map, 'unittest', 'discover', '-s', '.'], {
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

describe('trace_lines.py against the reference tracer (hot loops, untaken branches, a generator resumed by another test file, a thread)', () => {
  it('writes the same per-test-file map with fewer trace-function calls', () => {
    const reference = trace(REFERENCE, 'reference');
    const current = trace(traceLinesPath(), 'current');
    expect(reference.map).toContain('@@trace ok 6');
    expect(current.map).toBe(reference.map);
    expect(current.events).toBeLessThan(reference.events * 0.8);
  });
});
