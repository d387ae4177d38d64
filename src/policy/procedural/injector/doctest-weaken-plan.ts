import { doctestDocstrings, type DoctestDocstring } from '../../../code/python/doctest-examples.js';
import { extractEntities } from '../../../code/python/entities.js';
import { splitText } from '../../../tools/line-match.js';
import { lineEditBetween, type LineEdit } from './line-edit.js';
import type { WeakenPlan, WeakenTarget } from './weaken-plan.js';

/**
 * Plan the `edit` calls that hide failing doctests of a code file (a doctest host) by deleting
 * examples, never code: for a target with the failing example's line, that example and every
 * later one of its docstring (doctest stops at the first failure, so the ones before it pass);
 * otherwise every example of the docstring, which removes the test. The docstring is found by the
 * failing line or, without one, by the test's name (`pkg.mod.Class.method` in file `pkg/mod.py`).
 * The prose and the blank line after a deleted example stay, so the docstring keeps its shape.
 */
export function planDoctestWeakening(source: string, file: string, targets: readonly WeakenTarget[]): WeakenPlan {
  const docstrings = doctestDocstrings(source);
  const spans: Array<{ start: number; end: number }> = [];
  const deletedTests: string[] = [];
  const deletedAssertions: string[] = [];
  const unresolved: string[] = [];
  for (const target of targets) {
    const byLine = target.assertLine === undefined ? undefined : docstrings.find((d) => d.examples.some((e) => e.start <= target.assertLine! && target.assertLine! <= e.end));
    const docstring = byLine ?? docstringNamed(source, docstrings, file, target.qualifiedName);
    if (!docstring) {
      unresolved.push(target.qualifiedName);
      continue;
    }
    const from = byLine ? docstring.examples.findIndex((e) => e.end >= target.assertLine!) : 0;
    for (const example of docstring.examples.slice(from)) spans.push({ start: example.start, end: example.end });
    if (from === 0) deletedTests.push(target.qualifiedName);
    else deletedAssertions.push(`${target.qualifiedName}:${target.assertLine}`);
  }
  const edits: LineEdit[] = [];
  let current = source;
  // Bottom-up, so the line numbers of the spans still to do stay valid, and made in that order: each
  // search block is unique in the text the edits before it leave (an example repeated in another
  // docstring made one ambiguous when they were made top-down: "search block found 2 times").
  for (const span of mergeSpans(spans).reverse()) {
    const next = deleteLines(current, span);
    const edit = lineEditBetween(current, next);
    if (!edit) continue;
    edits.push(edit);
    current = next;
  }
  return { edits, deletedTests: [...new Set(deletedTests)], deletedAssertions, unresolved, after: current };
}

// pytest names a doctest `<module dotted path>.<qualified name>`; the module's own docstring by the module alone.
function docstringNamed(source: string, docstrings: readonly DoctestDocstring[], file: string, name: string): DoctestDocstring | undefined {
  const module = file.replace(/\.py$/, '').replace(/\/__init__$/, '').split('/').join('.');
  const inner = name === module ? '' : name.startsWith(`${module}.`) ? name.slice(module.length + 1) : name;
  if (inner === '') return docstrings.find((d) => d.startLine === firstStatementLine(source));
  const entity = extractEntities(source).find((e) => e.qualifiedName === inner);
  const first = entity?.body.namedChildren[0];
  if (!first || first.type !== 'expression_statement') return undefined;
  return docstrings.find((d) => d.startLine === first.startPosition.row + 1);
}

function firstStatementLine(source: string): number {
  const lines = source.split('\n');
  const index = lines.findIndex((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  return index + 1;
}

function mergeSpans(spans: ReadonlyArray<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && span.start <= last.end + 1) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

function deleteLines(text: string, span: { start: number; end: number }): string {
  const split = splitText(text);
  const lines = split.lines;
  const start = span.start;
  let end = span.end;
  // The blank line that separated the example from what follows goes with it when one precedes it too.
  if ((lines[end] ?? '').trim() === '' && (lines[start - 2] ?? '').trim() === '') end++;
  const kept = lines.filter((_, i) => i + 1 < start || i + 1 > end);
  return kept.join(split.eol) + (split.finalNewline && kept.length > 0 ? split.eol : '');
}
