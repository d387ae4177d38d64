/** A change kept during the search, with the tests it breaks on its own. */
export interface KeptChange<T> {
  file: string;
  behavioural: readonly string[];
  value: T;
}

/**
 * Choose `count` kept changes in distinct files such that each breaks some test that none of the
 * others breaks: then reverting any one file fixes a test, which is what method §3.7's inverse
 * redundancy check asks of a multi-file bug. Earlier changes are preferred; null when no such
 * set exists yet.
 */
export function combineChanges<T>(kept: readonly KeptChange<T>[], count: number): KeptChange<T>[] | null {
  const need = Math.max(1, count);
  const chosen: KeptChange<T>[] = [];
  const search = (from: number): boolean => {
    if (chosen.length === need) return chosen.every((change) => uniqueTests(change, chosen).length > 0);
    for (let i = from; i < kept.length; i++) {
      const next = kept[i]!;
      if (chosen.some((c) => c.file === next.file)) continue;
      chosen.push(next);
      if (search(i + 1)) return true;
      chosen.pop();
    }
    return false;
  };
  return search(0) ? [...chosen] : null;
}

/** Tests `change` breaks that no other member of `set` breaks. */
export function uniqueTests<T>(change: KeptChange<T>, set: readonly KeptChange<T>[]): string[] {
  const others = new Set(set.filter((c) => c !== change).flatMap((c) => c.behavioural));
  return change.behavioural.filter((id) => !others.has(id));
}
