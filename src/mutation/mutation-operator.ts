import { z } from 'zod';
import type { PyNode } from '../code/python/parse-python.js';
import type { SourceLanguage } from '../code/source-language.js';

/**
 * `operator`: a small in-place change (swap, negate, ±1, drop a branch). `removal`: deletes a
 * significant hunk of code, with a compatibility fix so the module still imports (method §7).
 */
export const mutationKindSchema = z.enum(['operator', 'removal']);
export type MutationKind = z.infer<typeof mutationKindSchema>;

/** One replacement an operator proposes; offsets are JS string indices into the source. */
export interface Replacement {
  start: number;
  /** Exclusive. */
  end: number;
  replacement: string;
  /** Human-readable, for the bug's metadata only: it never goes into the code. */
  description: string;
}

/**
 * A mutation operator (stryker-js style): a plain object that looks at one node and proposes
 * replacements. Operators stay syntax-only and pure; the engine checks every proposal by
 * re-parsing the mutated module and drops those that do not parse.
 */
export interface MutationOperator {
  /** Unique, kebab-case; recorded in the bug's metadata. */
  name: string;
  kind: MutationKind;
  /**
   * The languages whose modules the operator sees; the engine hands it only nodes of these. The
   * node types below are those of these languages' grammars (the JS ones share theirs with TS).
   */
  languages: readonly SourceLanguage[];
  description: string;
  appliesTo: {
    /** tree-sitter node types (of the grammars of {@link MutationOperator.languages}) handed to {@link MutationOperator.candidates}. */
    nodeTypes: readonly string[];
    /** Bounds on the node's line span (inclusive). */
    minLines?: number;
    maxLines?: number;
  };
  candidates(node: PyNode, source: string): Replacement[];
}

/** A checked replacement, as the engine returns it. */
export const candidateSchema = z.object({
  operator: z.string().describe('name of the operator that proposed it'),
  kind: mutationKindSchema,
  start: z.number().int().nonnegative().describe('JS string index of the first replaced character'),
  end: z.number().int().nonnegative().describe('exclusive end index'),
  replacement: z.string(),
  description: z.string(),
  line: z.number().int().positive().describe('1-based anchor line: the first line of code the edit replaces (never a comment or docstring line), or the line of its node if later'),
  endLine: z.number().int().positive().describe('1-based last line of the replaced text'),
});
export type Candidate = z.infer<typeof candidateSchema>;

/** Inclusive, 1-based. */
export interface LineRange {
  start: number;
  end: number;
}
