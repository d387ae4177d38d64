import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { loadReposFile, type LoadedRepos } from '../config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../config/resolve-repo.js';
import { EngineError } from '../util/engine-error.js';

export type SandboxChoice = 'docker' | 'bwrap' | 'auto';

export interface RepoOptions {
  repo: string;
  repos?: string;
}

/** Adds `--repo <id|path>` and `--repos <file>` to a command. */
export function addRepoOptions(command: Command): Command {
  return command
    .requiredOption('--repo <id|path>', 'repo id from repos.yaml, or a path to any local git repository (defaults apply)')
    .option('--repos <file>', 'repo set file (default: ./repos.yaml when present)');
}

/** Adds `--sandbox docker|bwrap|auto`. */
export function addSandboxOption(command: Command): Command {
  return command.addOption(
    new Option('--sandbox <backend>', 'sandbox backend (auto prefers a running Docker engine, then bubblewrap)')
      .choices(['docker', 'bwrap', 'auto'])
      .default('auto'),
  );
}

/** Flags of {@link addWarmOption}. */
export interface WarmFlags {
  warm?: number;
}

/** Adds `--warm <n>` to the commands that run episodes (selfplay, corpus, inject, solve). */
export function addWarmOption(command: Command): Command {
  return command.option(
    '--warm <n>',
    'keep n fresh sandboxes per repo image started ahead of demand, so an episode does not wait for one to start (never reused; removed at the end of the run)',
    positiveInt('--warm'),
  );
}

export async function loadReposOption(file: string | undefined): Promise<LoadedRepos | undefined> {
  if (file !== undefined) return loadReposFile(resolve(file));
  const fallback = resolve('repos.yaml');
  return existsSync(fallback) ? loadReposFile(fallback) : undefined;
}

export async function resolveRepoOptions(options: RepoOptions): Promise<ResolvedRepo> {
  return resolveRepo(options.repo, await loadReposOption(options.repos));
}

/** Parses a positive integer flag value with a specific error. */
export function positiveInt(flag: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) throw new EngineError('usage', `${flag}: expected a positive integer, got "${value}"`);
    return parsed;
  };
}
