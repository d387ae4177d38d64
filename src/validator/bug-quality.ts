import { z } from 'zod';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { filesSpanned } from './test-file-of.js';

const count = z.number().int().nonnegative();

/** How a test_weaken.diff hides the bug: single assertions, whole tests, both, or something else. */
export const weakeningGranularitySchema = z.enum(['assertion', 'test', 'mixed', 'other']);
export type WeakeningGranularity = z.infer<typeof weakeningGranularitySchema>;

/**
 * What a bug is like (issue 14), stored in its metadata.json for the report's distributions:
 * - `breadth` — FAIL_TO_PASS tests and the test files they span (null for an invalid bug: no F);
 * - `kind` — the change kind: the procedural Injector's operators (`negate-condition`,
 *   `swap-arguments`, `remove-guard-clause`, …, joined by `+`), else the strategy;
 * - `weakening` — the granularity of test_weaken.diff.
 */
export const bugQualitySchema = z.object({
  breadth: z.object({ failingTests: count, files: count }).nullable(),
  kind: z.string().min(1),
  weakening: weakeningGranularitySchema,
});
export type BugQuality = z.infer<typeof bugQualitySchema>;

const injectorNotesSchema = z.looseObject({
  operators: z.array(z.looseObject({ operator: z.string().min(1) })).optional(),
  weakening: z.looseObject({ granularity: weakeningGranularitySchema.optional() }).optional(),
});

/** The quality record of a bug from its artifact (and the Injector's notes in it), its validation and strategy. */
export function describeBugQuality(artifact: BugArtifact, validation: { valid: boolean; failToPass?: string[] }, strategy: string): BugQuality {
  const notes = injectorNotesSchema.safeParse(artifact.metadata ?? {});
  const operators = notes.success ? [...new Set((notes.data.operators ?? []).map((o) => o.operator))].sort() : [];
  const failToPass = validation.failToPass ?? [];
  return {
    breadth: validation.valid ? { failingTests: failToPass.length, files: filesSpanned(failToPass, artifact.testFiles).length } : null,
    kind: operators.length > 0 ? operators.join('+') : strategy,
    weakening: (notes.success ? notes.data.weakening?.granularity : undefined) ?? weakeningOf(artifact.testWeaken),
  };
}

/**
 * A test definition: Python's `def test…` / `class Test…`; JS/TS runners' `it(`, `test(`,
 * `describe(` (and `.only` / `.skip` / `.each` forms), node-tap's `t.test(`.
 */
const TEST_DEF = /^(\s*)(?:async\s+)?def\s+test\w*\s*\(|^(\s*)class\s+Test\w*\s*[(:]|^(\s*)(?:(?:it|test|specify|describe|context|suite)(?:\.\w+)*|t\.test)\s*[(`]/;
/**
 * An assertion line: Python's `assert`, `self.assert…(`, `raises(`; JS/TS `assert(`, `assert.x(`,
 * `expect(`, and tape / node-tap's `t.equal(`-style calls.
 */
const ASSERTION = new RegExp(
  '^\\s*(?:assert\\b|self\\.assert\\w*\\s*\\(|(?:pytest\\.)?raises\\s*\\(' +
    '|(?:await\\s+)?(?:assert(?:\\.\\w+)*\\s*\\(|expect(?:\\.\\w+)*\\s*\\(' +
    '|t\\.(?:ok|notOk|equal|equals|notEqual|deepEqual|notDeepEqual|strictEqual|same|notSame|strictSame|match|notMatch|throws|doesNotThrow|rejects|resolves|is|isNot|truthy|falsy|assert|fail|error|has|type)\\s*\\())',
);

/**
 * Granularity read off the diff, for an Injector that did not record it (an LLM): a removed test
 * definition (`def test…`, `class Test…`, JS `it(…` / `test(…`) with its body is a whole test; a removed assertion
 * line outside such a removed body is an assertion; both kinds in one diff are `mixed`.
 */
export function weakeningOf(testWeaken: string): WeakeningGranularity {
  let hunks: string[][];
  try {
    hunks = parseUnifiedDiff(testWeaken).files.flatMap((file) => file.hunks.map((hunk) => hunk.lines));
  } catch (error) {
    if (isDiffParseError(error)) return 'other';
    throw error;
  }
  let tests = false;
  let asserts = false;
  for (const lines of hunks) {
    // Indent of the removed test whose body the following removed lines are, or null.
    let body: number | null = null;
    for (const line of lines) {
      const text = line.slice(1);
      if (!line.startsWith('-')) {
        if (text.trim() !== '') body = null;
        continue;
      }
      const def = TEST_DEF.exec(text);
      if (def) {
        tests = true;
        body = (def[1] ?? def[2] ?? def[3] ?? '').length;
        continue;
      }
      const indent = text.length - text.trimStart().length;
      if (body !== null && (text.trim() === '' || indent > body)) continue;
      body = null;
      if (ASSERTION.test(text)) asserts = true;
    }
  }
  if (tests && asserts) return 'mixed';
  return tests ? 'test' : asserts ? 'assertion' : 'other';
}
