import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

describe('ssr selfplay --sampler-check-tolerance <x>', () => {
  it.each(['0', 'loose'])('%j is a usage error naming the flag', async (value) => {
    const run = await runCli(['selfplay', '--repo', 'x', '--sampler-check-tolerance', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--sampler-check-tolerance: expected a positive number, got "${value}"`);
  });
});
