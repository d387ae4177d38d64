// Prints the quick start's repaired bugs: for each bug the Solver repaired at least once, its id,
// solves and the lines the Injector changed (what the Solver had to put back), or why there is none.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2];
const episodes = readFileSync(join(out, 'episodes.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
const repaired = episodes.filter((episode) => episode.solved > 0 && episode.bugId);
if (repaired.length === 0) {
  const valid = episodes.filter((episode) => episode.valid).length;
  console.log(`== no bug repaired: ${valid} valid bug(s) of ${episodes.length} episode(s), none within the model-free Solver's reach (see above); the report lists them`);
}
for (const episode of repaired) {
  const diffPath = join(out, 'bugs', episode.bugId, 'bug_inject.diff');
  const diff = existsSync(diffPath) ? readFileSync(diffPath, 'utf8') : '';
  const file = /^\+\+\+ b\/(.+)$/m.exec(diff)?.[1] ?? '?';
  const changed = diff.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line)).slice(0, 4);
  console.log(`== repaired: bug ${episode.bugId} (${episode.strategy}, ${file}), solved ${episode.solved}/${episode.solverAttempts}; the bug changed:`);
  for (const line of changed) console.log(`     ${line}`);
}
