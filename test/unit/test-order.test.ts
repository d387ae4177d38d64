import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import SlowFirstSequencer, { rank, SLOW_FIRST } from '../sequencer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the test order (test/sequencer.ts)', () => {
  it('is the order vitest uses', () => {
    expect(config.test?.sequence?.sequencer).toBe(SlowFirstSequencer);
  });

  it('names only test files that exist: a renamed slow file must not silently fall back to vitest order', () => {
    for (const [file] of SLOW_FIRST) expect(existsSync(join(ROOT, file)), file).toBe(true);
    expect(new Set(SLOW_FIRST.map(([file]) => file)).size).toBe(SLOW_FIRST.length);
  });

  it('puts the slow files first in their order, then the other integration files, then the unit files', () => {
    const files = ['test/unit/cli/help.test.ts', 'test/integration/repo-history.test.ts', ...SLOW_FIRST.map(([file]) => file).reverse()];
    const sorted = [...files].sort((a, b) => rank(a) - rank(b));
    expect(sorted).toEqual([...SLOW_FIRST.map(([file]) => file), 'test/integration/repo-history.test.ts', 'test/unit/cli/help.test.ts']);
  });
});
