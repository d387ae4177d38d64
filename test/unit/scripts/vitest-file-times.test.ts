import { describe, expect, it } from 'vitest';
import { fileTimes, formatFileTimes } from '../../../scripts/vitest-file-times.js';

const at = (seconds: number) => 1_700_000_000_000 + seconds * 1000;
const report = {
  numTotalTests: 3,
  testResults: [
    { name: '/repo/test/unit/a.test.ts', startTime: at(100), endTime: at(101), status: 'passed', assertionResults: [] },
    { name: '/repo/test/integration/slow.test.ts', startTime: at(10), endTime: at(160), status: 'passed', assertionResults: [] },
    { name: '/repo/test/integration/late.test.ts', startTime: at(40), endTime: at(130), status: 'failed', assertionResults: [] },
  ],
};

describe('scripts/vitest-file-times.ts', () => {
  it('gives each file its duration and its start and end after the first start, longest first, relative to the root', () => {
    expect(fileTimes(report, '/repo')).toEqual([
      { file: 'test/integration/slow.test.ts', start: 0, end: 150, seconds: 150, status: 'passed' },
      { file: 'test/integration/late.test.ts', start: 30, end: 120, seconds: 90, status: 'failed' },
      { file: 'test/unit/a.test.ts', start: 90, end: 91, seconds: 1, status: 'passed' },
    ]);
  });

  it('prints the longest files, a failed one marked, then the count, the sum and the last end', () => {
    const lines = formatFileTimes(fileTimes(report, '/repo'), 2).split('\n');
    expect(lines).toEqual([
      '[file-times] the 2 longest test files (duration, start → end in s after the first file started):',
      '[file-times]    150 s      0 →   150  test/integration/slow.test.ts',
      '[file-times]     90 s     30 →   120  test/integration/late.test.ts (failed)',
      '[file-times] 3 files, 241 s summed over files, last one ended at 150 s',
    ]);
  });

  it('refuses a report of another shape', () => {
    expect(() => fileTimes({ files: [] }, '/repo')).toThrow(/testResults/);
  });
});
