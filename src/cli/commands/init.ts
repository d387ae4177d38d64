import type { Command } from 'commander';
import type { InitResult } from '../../onboarding/init-result.js';
import { runInit } from '../../onboarding/run-init.js';
import { describeGoldenGate } from '../../selfplay/golden-gate/judge-golden-gate.js';
import { selectBackend } from '../../sandbox/select-backend.js';
import { addSandboxOption, positiveInt, type SandboxChoice } from '../common-options.js';

interface InitFlags {
  repos: string;
  id?: string;
  sandbox: SandboxChoice;
  dryRun?: boolean;
  json?: boolean;
  testTimeout?: number;
}

function render(result: InitResult): string {
  const lines = [`ssr init ${result.path} (commit ${result.commit.slice(0, 12)})`];
  if (result.language) lines.push(`  language  ${result.language.language} (${result.language.files} files)`);
  if (result.runner) lines.push(`  runner    ${result.runner.runner}: ${result.runner.evidence.join('; ')}`, `  tests     ${result.runner.testCommand}${result.runner.note ? ` (${result.runner.note})` : ''}`);
  for (const hint of result.dependencies) lines.push(`  deps      ${hint.file}: ${hint.detail}${hint.step ? ' → setup step' : ''}`);
  if (result.gate) lines.push(`  gate      ${describeGoldenGate(result.gate)}`);
  if (result.cleanSuite) lines.push(`  clean     ${result.cleanSuite.passed} passed, ${result.cleanSuite.failed} failed`);
  for (const note of result.notes) lines.push(`  note      ${note}`);
  if (result.status === 'undecided') {
    lines.push(`could not decide (nothing written to ${result.reposFile}):`);
    for (const item of result.undecided) lines.push(`  - ${item.field}: ${item.why}`);
  } else {
    const verb = result.status === 'dry-run' ? 'would write' : result.replaced ? 'updated' : 'added';
    lines.push(`${verb} entry "${result.id}" in ${result.reposFile}`);
    lines.push(`next: npx ssr doctor && npx ssr selfplay --repos ${result.reposFile} --repo ${result.id} --steps 1 --out runs/${result.id}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `ssr init [PATH]`: onboard a local repo: detect, gate, write its repos.yaml entry. */
export function registerInit(program: Command): void {
  const command = program
    .command('init')
    .argument('[path]', 'the local git repository to onboard (its HEAD)', '.')
    .description('detect a repo\'s language, test runner and dependencies, run its clean suite twice in a sandbox (golden gate), and write its repos.yaml entry, or list what it could not decide')
    .option('--repos <file>', 'the repos.yaml to add the entry to (created when absent)', 'repos.yaml')
    .option('--id <id>', 'entry id (default: the directory name, lower-cased)')
    .option('--dry-run', 'decide and run the gate, but write nothing')
    .option('--test-timeout <seconds>', 'limits.test_timeout_s the golden gate starts from (default 90; the gate raises it for a suite near it)', positiveInt('--test-timeout'))
    .option('--json', 'print the whole result as JSON');
  addSandboxOption(command);
  command.action(async (path: string, flags: InitFlags) => {
    const backend = await selectBackend(flags.sandbox);
    const result = await runInit({
      path,
      reposFile: flags.repos,
      ...(flags.id ? { id: flags.id } : {}),
      backend,
      dryRun: flags.dryRun === true,
      ...(flags.testTimeout === undefined ? {} : { testTimeoutS: flags.testTimeout }),
      progress: (event) => process.stderr.write(`[${event.stage}] ${event.message}\n`),
    });
    process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : render(result));
    process.exitCode = result.status === 'undecided' ? 1 : 0;
  });
}
