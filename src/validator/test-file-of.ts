/** A JS test id of the default parsers: the file (a JS/TS source path), then " > " and names. */
const JS_ID = /^([^\s>][^>]*\.[cm]?[jt]sx?)(?: > |$)/;

/** The test file of a JS parser's id (`test/calc.test.mjs > suite > adds`, or the file alone), null for any other id. */
export function jsTestFileOf(id: string): string | null {
  return JS_ID.exec(id)?.[1] ?? null;
}

/**
 * The test file a test id belongs to, from the ids the artifact's parser prints, without knowing
 * the runner: a pytest node id starts with its path (`tests/test_x.py::Class::test[p]`); a dotted
 * unittest id (`tests.test_x.Class.test`) names its module, maybe below a start dir, so the
 * listed file whose dotted path is the longest prefix of the id (or ends with one) wins. An id
 * that names no listed file groups under its module (all but `Class.test`), so breadth is still counted.
 * The JS parsers' ids (`test/calc.test.mjs > suite > adds`) start with their file and " > ".
 */
export function testFileOf(id: string, testFiles: readonly string[]): string {
  const colons = id.indexOf('::');
  if (colons > 0) return id.slice(0, colons);
  const js = jsTestFileOf(id);
  if (js !== null) return js;
  let best: { file: string; length: number } | undefined;
  for (const file of testFiles) {
    const module = file.replace(/\.py$/, '').split('/').join('.');
    // `tests.test_x` for `tests/test_x.py`, and `test_x` when the runner started inside `tests/`.
    const suffixes = module.split('.').map((_, i, parts) => parts.slice(i).join('.'));
    const hit = suffixes.find((suffix) => id === suffix || id.startsWith(`${suffix}.`));
    if (hit !== undefined && (!best || hit.length > best.length)) best = { file, length: hit.length };
  }
  if (best) return best.file;
  // unittest ids are module.Class.test: the module is what a file would be.
  const parts = id.split('.');
  return parts.length >= 3 ? parts.slice(0, -2).join('.') : id;
}

/** How many distinct test files the ids span (see {@link testFileOf}). */
export function filesSpanned(ids: readonly string[], testFiles: readonly string[]): string[] {
  return [...new Set(ids.map((id) => testFileOf(id, testFiles)))].sort();
}
