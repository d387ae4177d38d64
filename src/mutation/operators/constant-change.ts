import type { MutationOperator } from '../mutation-operator.js';

/** `True` ↔ `False`, and ±1 on a plain decimal float (`0.5` ↔ `1.5`). */
export const constantChange: MutationOperator = {
  name: 'constant-change',
  kind: 'operator',
  languages: ['python'],
  description: 'Flip a boolean constant or shift a float constant by one.',
  appliesTo: { nodeTypes: ['true', 'false', 'float'] },
  candidates(node) {
    const at = { start: node.startIndex, end: node.endIndex };
    if (node.type !== 'float') {
      const replacement = node.type === 'true' ? 'False' : 'True';
      return [{ ...at, replacement, description: `constant ${node.text} → ${replacement}` }];
    }
    // Integer part ±1 keeps the fraction digits as written, so the shift is exact and invertible.
    const match = /^(\d+)\.(\d+)$/.exec(node.text);
    if (!match) return [];
    const whole = BigInt(match[1]!);
    return [whole + 1n, whole - 1n]
      .filter((next) => next >= 0n)
      .map((next) => `${next}.${match[2]}`)
      .map((replacement) => ({ ...at, replacement, description: `constant ${node.text} → ${replacement}` }));
  },
};
