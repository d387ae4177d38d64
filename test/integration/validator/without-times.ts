/** Wall-clock fields differ between any two runs, `selection` says how the tests were chosen and `testRuns` how many ran; everything else must not. */
export function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'durationMs' && key !== 'selection' && key !== 'testRuns').map(([key, inner]) => [key, withoutTimes(inner)]));
}
