import { describe, expect, it } from 'vitest';
import { traceKey } from '../../../../src/validator/selection/coverage-plan.js';

const IMAGE = 'ssr-repo-pyledger:abc';

describe('traceKey: one traced run of O per image and pytest arguments', () => {
  it('is shared by scripts that differ only in what the trace never reads', () => {
    const plain = 'cd /repo\npython3 -m pytest -rA tests\n';
    const other = '#!/bin/bash\nset -e\n# run the whole suite\ncd /repo\nexport PYTHONHASHSEED=0\npython3 -m pytest -rA tests\n';
    expect(traceKey(IMAGE, other)).toBe(traceKey(IMAGE, plain));
  });

  it('differs when the pytest arguments or the image differ', () => {
    const all = 'cd /repo\npython3 -m pytest -rA tests\n';
    const one = 'cd /repo\npython3 -m pytest -rA tests/test_money.py\n';
    expect(traceKey(IMAGE, one)).not.toBe(traceKey(IMAGE, all));
    expect(traceKey('ssr-repo-pyledger:def', all)).not.toBe(traceKey(IMAGE, all));
  });
});
