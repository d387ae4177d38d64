import { main } from '../../cli/main.js';
import { errorMessage, isEngineError } from '../../util/engine-error.js';
import { runAblation } from './run-ablation.js';
import { runAnchoringAblation } from './anchoring-ablation.js';

/**
 * Entry of `scripts/ablate-<name>`: `ablation-entry.ts <name> <ssr selfplay flags…> --out <dir>`.
 * Each variant runs in this process through the CLI, so every selfplay flag works as documented.
 * (Not named `*main.ts`: src/cli/main.ts runs itself when the entry script's name ends so.)
 */
const [name = '', ...argv] = process.argv.slice(2);
// Anchoring compares two runs (and their held-out evals) in a table of its own.
(name === 'anchoring' ? runAnchoringAblation(argv, (args) => main(args)) : runAblation(name, argv, (args) => main(args))).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`ablate-${name}: ${errorMessage(error)}${isEngineError(error) ? ` [${error.code}]` : ''}\n`);
    process.exitCode = 2;
  },
);
