import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import PQueue from 'p-queue';
import { loadArtifactDir } from '../../artifact/load-artifact.js';
import { progressDisplay } from '../../util/progress-display.js';
import { gradeSolution } from '../../roles/grade-solution.js';
import { gradeVerdict, type GradeVerdict } from '../../roles/grade-verdict.js';
import { validateForGrading } from '../../roles/grading-oracle.js';
import { createProvider, prepareTemplate } from '../../sandbox/sandbox-factory.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { EngineError } from '../../util/engine-error.js';
import { BaselineCache } from '../../validator/baseline-cache.js';
import { addRepoOptions, addSandboxOption, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';
import { DEFAULT_VALIDATE_CONCURRENCY } from './validate.js';
import { testTimeoutMsOf, testTimeoutOption } from '../test-timeout-option.js';

interface GradeOptions extends RepoOptions {
  artifact: string;
  patch: string;
  json?: boolean;
  testTimeout?: number;
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
}

/** The whole patch file; a missing or unreadable one is the user's bad input (exit 2), never a −1. */
async function readPatchFile(file: string): Promise<string> {
  try {
    return await readFile(resolve(file), 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new EngineError('usage', `--patch ${file}: cannot read it (${why})`);
  }
}

const MAX_LISTED = 20;

function formatVerdict(verdict: GradeVerdict, patchFile: string): string {
  const lines = [`${verdict.reward === 1 ? '+1' : '-1'} ${verdict.reason}`, `  patch     ${patchFile}`];
  lines.push(`  applied   ${verdict.applied ?? 'no'}`);
  if (verdict.failingTests.length > 0) {
    lines.push(`  failing   ${verdict.failingTests.length} test(s) that pass on the original repo:`);
    for (const id of verdict.failingTests.slice(0, MAX_LISTED)) lines.push(`    ${id}`);
    if (verdict.failingTests.length > MAX_LISTED) lines.push(`    … and ${verdict.failingTests.length - MAX_LISTED} more (--json lists them all)`);
  }
  for (const dropped of verdict.droppedSections) lines.push(`  dropped   ${dropped.path} (${dropped.reason}): not graded`);
  for (const flag of verdict.flags) lines.push(`  flag      ${flag}`);
  return `${lines.join('\n')}\n`;
}

export function registerGrade(program: Command): void {
  const command = program
    .command('grade')
    .description('grade a patch on a bug artifact exactly as self-play grades a Solver attempt (exit 0 for +1, 1 for -1, 2 bad input or infrastructure)');
  addRepoOptions(command);
  command
    .requiredOption('--artifact <dir>', 'the bug artifact directory (validated first; an invalid one is refused with exit 2)')
    .requiredOption('--patch <file>', 'the patch to grade: a unified diff against the buggy repo (O + bug_inject.diff)')
    .option('--json', 'print one JSON object {reward, reason, applied, failingTests, droppedSections, flags, code}')
    .addOption(testTimeoutOption());
  addSandboxOption(command);
  addDockerHostOption(command);
  command.action(async (options: GradeOptions) => {
    // Every input is read before a sandbox starts: bad input is exit 2 at once.
    const artifactDir = resolve(options.artifact);
    const patch = await readPatchFile(options.patch);
    const artifact = await loadArtifactDir(artifactDir);
    const repo = await resolveRepoOptions(options);
    const backend = await sandboxBackend(options);
    const display = progressDisplay(process.stderr);
    const template = await prepareTemplate(repo, backend, display.sink).finally(display.stop);
    const provider = createProvider(backend);
    const testTimeoutMs = testTimeoutMsOf(options, repo);

    const oracle = await validateForGrading(artifact, {
      repo, template, provider, testTimeoutMs, queue: new PQueue({ concurrency: DEFAULT_VALIDATE_CONCURRENCY }), baselines: new BaselineCache(),
    });
    if (oracle.status === 'invalid') {
      throw new EngineError('artifact-invalid-input', `--artifact ${artifactDir} does not validate: rejected by ${oracle.failedCheck}: ${oracle.reason}`);
    }
    const grade = await gradeSolution({
      provider, template, artifact, patch, originalPassing: oracle.originalPassing, originalGuarded: oracle.validation.originalGuarded, toleratedTampering: oracle.validation.toleratedTampering, testTimeoutMs,
    });
    const verdict = gradeVerdict(grade);
    process.stdout.write(options.json ? `${JSON.stringify(verdict)}\n` : formatVerdict(verdict, options.patch));
    process.exitCode = verdict.reward === 1 ? 0 : 1;
  });
}
