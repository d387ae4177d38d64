import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { LoadedRepos } from '../config/load-repos.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { positiveInt } from '../util/flag-values.js';

// Every command registers these flags, so this module stays light: repos.yaml's parser and zod
// schemas load when a command first reads them, never for `ssr <command> --help` (help.test.ts).

export type SandboxChoice = 'docker' | 'bwrap' | 'k8s' | 'auto';

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

/** Flags of {@link addSandboxOption} beyond `--sandbox` itself. */
export interface K8sFlags {
  k8sNamespace?: string;
  k8sContext?: string;
  k8sRegistry?: string;
}

/**
 * Adds `--sandbox docker|bwrap|k8s|auto` and the `--k8s-*` flags; a hook hands the latter to the
 * k8s backend before the command runs (the kubeconfig is found as kubectl finds it: KUBECONFIG).
 */
export function addSandboxOption(command: Command): Command {
  return command
    .addOption(
      new Option('--sandbox <backend>', 'sandbox backend (auto prefers a running Docker engine, then bubblewrap; k8s only when asked for, see docs/kubernetes.md)')
        .choices(['docker', 'bwrap', 'k8s', 'auto'])
        .default('auto'),
    )
    .addOption(new Option('--k8s-namespace <name>', "with --sandbox k8s: namespace of the sandbox pods (default: the context's, else default)").env('SSR_K8S_NAMESPACE'))
    .addOption(new Option('--k8s-context <name>', 'with --sandbox k8s: kubeconfig context (default: the current one)').env('SSR_K8S_CONTEXT'))
    .addOption(new Option('--k8s-registry <prefix>', 'with --sandbox k8s: registry prefix the cluster pulls ssr images from (default: the bare local tag, as kind load leaves it)').env('SSR_K8S_REGISTRY'))
    .hook('preAction', async (_command, action) => {
      const flags = action.opts<K8sFlags>();
      const { configureK8s } = await import('../sandbox/k8s/k8s-settings.js');
      configureK8s({ namespace: flags.k8sNamespace, context: flags.k8sContext, registry: flags.k8sRegistry });
    });
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
  const path = file !== undefined ? resolve(file) : resolve('repos.yaml');
  if (file === undefined && !existsSync(path)) return undefined;
  return (await import('../config/load-repos.js')).loadReposFile(path);
}

export async function resolveRepoOptions(options: RepoOptions): Promise<ResolvedRepo> {
  const [{ resolveRepoRef }, repos] = await Promise.all([import('../onboarding/resolve-repo-ref.js'), loadReposOption(options.repos)]);
  return resolveRepoRef(options.repo, repos);
}

export { positiveInt, positiveNumber } from '../util/flag-values.js';
