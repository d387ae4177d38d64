import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { LoadedRepos } from '../config/load-repos.js';
import { imageRecipeSchema, type TestRunner } from '../config/repos-schema.js';
import { resolveRepo, type ResolvedRepo } from '../config/resolve-repo.js';
import { runnerLanguage } from '../harness/repo-test-files.js';
import { EngineError } from '../util/engine-error.js';
import type { RepoDetection } from './detect-repo.js';

const real = (path: string): string => (existsSync(path) ? realpathSync(path) : path);

/** The repos.yaml entry whose source.path is this directory, with its index. */
function entryAt(repos: LoadedRepos | undefined, dir: string): { id: string; index: number; runner: TestRunner } | undefined {
  const index = repos?.file.repos.findIndex((repo) => repo.source.path !== undefined && real(isAbsolute(repo.source.path) ? repo.source.path : resolve(repos.baseDir, repo.source.path)) === dir) ?? -1;
  if (index < 0) return undefined;
  const entry = repos!.file.repos[index]!;
  return { id: entry.id, index, runner: entry.test.runner };
}

/** The language family a detection speaks for (TypeScript repos run JavaScript runners). */
function family(detection: RepoDetection): 'python' | 'javascript' | undefined {
  if (detection.testRunner !== undefined) return runnerLanguage(detection.testRunner);
  const language = detection.runner?.language ?? detection.language?.language;
  if (language === 'python') return 'python';
  return language === 'javascript' || language === 'typescript' ? 'javascript' : undefined;
}

/**
 * Resolve a command's `--repo <id|path>` the way `ssr init` would see it. An id of repos.yaml
 * resolves as written. A path that an entry points at resolves to that entry, unless what the
 * repo's files say (language, test runner) disagrees with the entry's test.runner: that is refused,
 * naming both. A path without an entry runs with what detection decides (runner, dependency
 * steps) or, when detection cannot decide without writing an entry, is refused in one line that
 * names `ssr init <path>`. Never a default that belongs to another language.
 */
export async function resolveRepoRef(ref: string, repos: LoadedRepos | undefined): Promise<ResolvedRepo> {
  const dir = resolve(ref);
  const isDir = existsSync(dir) && statSync(dir).isDirectory();
  if (repos?.file.repos.some((repo) => repo.id === ref) || !isDir) return resolveRepo(ref, repos);
  const byPath = await resolveRepo(dir, undefined);
  // Detection (every runner's detector, tree-sitter) only for a repo given by its path: an id's start-up never loads it.
  const [{ describeDetection, detectRepo }, { repoFilesAt }] = await Promise.all([import('./detect-repo.js'), import('./repo-files.js')]);
  const detection = await detectRepo(await repoFilesAt(dir, byPath.commit));
  const detected = describeDetection(detection);
  const entry = entryAt(repos, real(dir));
  if (entry !== undefined) {
    const declared = runnerLanguage(entry.runner);
    const found = family(detection);
    const runnerDiffers = detection.testRunner !== undefined && detection.testRunner !== entry.runner;
    if ((found !== undefined && found !== declared) || runnerDiffers) {
      const at = repos!.lines?.lineOf(['repos', entry.index]);
      const where = at === undefined ? repos!.path : `${repos!.path}:${at}`;
      throw new EngineError(
        'config-invalid',
        `--repo ${ref}: the repos.yaml entry "${entry.id}" (${where}) runs it with test.runner ${entry.runner} (${declared}), but its files at HEAD say ${detected}` +
          `${detection.testRunner === undefined ? '' : ` (test.runner ${detection.testRunner})`}: fix test.runner in that entry or rewrite it with \`ssr init ${ref} --id ${entry.id}\``,
      );
    }
    return resolveRepo(entry.id, repos);
  }
  if (detection.undecided.length > 0 || detection.testRunner === undefined) {
    const first = detection.undecided[0];
    const why = first === undefined ? '' : `; ${first.field}: ${first.why}`;
    throw new EngineError('usage', `--repo ${ref}: no repos.yaml entry points at it and it cannot run by path (detected: ${detected}${why}); run \`ssr init ${ref}\`, which writes the entry or names the field that settles it`);
  }
  return {
    ...byPath,
    ...(detection.setup.length > 0 ? { image: imageRecipeSchema.parse({ setup: detection.setup }) } : {}),
    // pytest stays implicit, as in every repo resolved by path before: the image and its tag do not change.
    ...(detection.testRunner === 'pytest' ? {} : { testRunner: detection.testRunner }),
  };
}
