import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // Integration tests share one built image per repo; building it is the slow part,
    // so the global setup builds it once before any worker starts.
    globalSetup: ['test/global-setup.ts'],
    // The slow integration files first, so no long file starts last (test/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
