import { readFileSync } from 'node:fs';
import { parseSource } from '../../code/parse-source.js';
import { requireLanguageOfPath } from '../../code/source-language.js';
import { EngineError } from '../../util/engine-error.js';
import { applyCandidate } from '../apply-candidates.js';
import { enumerateCandidates } from '../enumerate-candidates.js';
import { incrementalReparser } from '../incremental-reparse.js';

/**
 * Checks every proposal of one JS/TS module twice in the same run, by a full parse of each mutant
 * (the baseline) and by the incremental re-parse the engine uses, and prints both times and their
 * ratio. Both must agree on which mutants parse, or the run fails.
 */
function main(argv: string[]): void {
  const path = argv[0];
  if (!path) throw new EngineError('usage', 'usage: scripts/bench-js-check <module.js|.ts|.tsx> [--json]');
  const language = requireLanguageOfPath(path);
  if (language === 'python') throw new EngineError('usage', `${path} is Python; this bench measures the JS/TS re-parse`);
  const source = readFileSync(path, 'utf8');
  const proposals = enumerateCandidates(source, parseSource(source, language), { language }).map((p) => p.candidate);
  const mutants = proposals.map((candidate) => applyCandidate(source, candidate));

  let started = performance.now();
  const full = mutants.map((mutated) => parseSource(mutated, language).rootNode.hasError);
  const fullMs = performance.now() - started;

  const reparse = incrementalReparser(source, language);
  started = performance.now();
  const incremental = mutants.map((mutated, i) => reparse(mutated, proposals[i]!, (tree) => tree.rootNode.hasError));
  const incrementalMs = performance.now() - started;

  const disagree = full.filter((error, i) => error !== incremental[i]).length;
  if (disagree > 0) throw new EngineError('internal', `incremental and full parses disagree on ${disagree} of ${mutants.length} mutants`);
  const result = {
    module: path,
    lines: source.split('\n').length,
    mutants: mutants.length,
    fullMs: Math.round(fullMs),
    incrementalMs: Math.round(incrementalMs),
    speedup: Number((fullMs / incrementalMs).toFixed(2)),
  };
  if (argv.includes('--json')) console.log(JSON.stringify(result));
  else console.log(`${result.module} (${result.lines} lines, ${result.mutants} mutants): full ${result.fullMs} ms, incremental ${result.incrementalMs} ms, ${result.speedup}x`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  // A usage mistake is one line, not a stack.
  if (!(error instanceof EngineError) || error.code !== 'usage') throw error;
  console.error(`bench-js-check: ${error.message}`);
  process.exitCode = 2;
}
