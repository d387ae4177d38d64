/**
 * Solve rate of the procedural Solver on seeded operator bugs of pyledger (issue 5): draws
 * catalogue mutations of kind `operator` (any operator, repairable or not), keeps those that
 * make a test fail, hides them by deleting the failing tests, runs one Solver episode per bug
 * and grades it as method §4 says. Needs Docker.
 *
 * Usage: npx tsx scripts/measure-procedural-solver.ts [--bugs 10] [--seed 1] [--json]
 */
import { parseArgs } from 'node:util';
import { createProvider } from '../src/sandbox/sandbox-factory.js';
import { pickCandidates, applyCandidate } from '../src/mutation/mutate.js';
import type { Candidate } from '../src/mutation/mutation-operator.js';
import { REPAIR_OPERATORS } from '../src/mutation/repair-candidates.js';
import { seededRng } from '../src/util/seeded-rng.js';
import { buildScenario, solveAndGrade } from './lib/procedural-solver-scenario.js';
import { dockerTemplate, exampleRepo, withSandbox } from './lib/sandboxes.js';

const { values } = parseArgs({ options: { bugs: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' }, json: { type: 'boolean', default: false } } });
const wanted = Number(values.bugs);
const seed = Number(values.seed);

const template = await dockerTemplate(await exampleRepo());
const ctx = { template, provider: createProvider('docker') };
const files = await withSandbox(template, async (sandbox) =>
  (await sandbox.exec("git ls-files 'pyledger/*.py'")).output.split('\n').filter((f) => f.endsWith('.py') && !f.endsWith('__init__.py')),
);

const rng = seededRng(`measure-procedural-solver:${seed}`);
const rows: Array<{ bug: string; operator: string; invertible: boolean; failing: number; reward: number; turns: number; seconds: number; kept: string }> = [];
let rejected = 0;
for (let draw = 0; rows.length < wanted && draw < wanted * 5; draw++) {
  const file = rng.pick(files);
  let picked: Candidate | undefined;
  const built = await buildScenario(ctx, `bug${draw}`, file, (source) => {
    picked = pickCandidates(source, rng.fork(`draw:${draw}`), { count: 1, kinds: ['operator'] })[0];
    return picked ? applyCandidate(source, picked) : null;
  });
  if (built.status !== 'built' || !picked) {
    rejected++;
    continue;
  }
  const started = Date.now();
  const { episode, grade } = await solveAndGrade(ctx, built.scenario, seed);
  const row = {
    bug: `${file}:${picked.line} ${picked.description}`,
    operator: picked.operator,
    invertible: (REPAIR_OPERATORS as readonly string[]).includes(picked.operator),
    failing: built.scenario.failing.length,
    reward: grade.reward,
    turns: episode.exit.turns,
    seconds: Math.round((Date.now() - started) / 1000),
    kept: episode.patch?.trim() ? 'patch' : 'empty',
  };
  rows.push(row);
  if (!values.json) console.log(`${row.reward === 1 ? 'SOLVED' : 'failed'}  ${row.bug}  (F=${row.failing}, ${row.turns} turns, ${row.seconds} s, ${row.kept})`);
}
const solved = rows.filter((r) => r.reward === 1).length;
const invertible = rows.filter((r) => r.invertible);
const summary = {
  bugs: rows.length,
  rejectedDraws: rejected,
  solved,
  solveRate: rows.length === 0 ? 0 : solved / rows.length,
  solveRateInvertible: invertible.length === 0 ? 0 : invertible.filter((r) => r.reward === 1).length / invertible.length,
  invertibleBugs: invertible.length,
  meanSeconds: rows.length === 0 ? 0 : Math.round(rows.reduce((s, r) => s + r.seconds, 0) / rows.length),
};
console.log(values.json ? JSON.stringify({ summary, rows }, null, 1) : `\n${JSON.stringify(summary)}`);
