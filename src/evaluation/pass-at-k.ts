/**
 * The unbiased pass@k of one instance from n scored attempts of which c solved it (Chen et al.
 * 2021): 1 − C(n−c, k) / C(n, k), the chance that k attempts drawn without replacement hold a
 * solve. With fewer than k scored attempts (some discarded for infrastructure) k is clipped to n.
 * Null without a scored attempt.
 */
export function passAtK(n: number, c: number, k: number): number | null {
  if (n <= 0) return null;
  const kk = Math.min(k, n);
  if (n - c < kk) return 1;
  // C(n−c, k) / C(n, k) = Π_{i=0}^{k−1} (n−c−i) / (n−i), as a product to stay exact enough.
  let fail = 1;
  for (let i = 0; i < kk; i += 1) fail *= (n - c - i) / (n - i);
  return 1 - fail;
}
