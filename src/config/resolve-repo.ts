import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { imageRecipeSchema, limitsSchema, testSelectionSchema, thresholdsSchema, type ImageRecipe, type Limits, type TestRunner, type TestSelectionSettings, type Thresholds } from './repos-schema.js';
import type { LoadedRepos } from './load-repos.js';

/** A repo ready to build an image from: absolute source location, pinned commit, full thresholds and limits. */
export interface ResolvedRepo {
  id: string;
  /** Absolute path or URL git can clone from. */
  location: string;
  commit: string;
  image: ImageRecipe;
  thresholds: Thresholds;
  limits: Limits;
  /** Where each `image.setup` step is written (`/path/repos.yaml:14`), for build errors; absent for repos run by path. */
  setupOrigins?: string[];
  /** When the validator selects relevant tests (default: `auto` above 30 s). */
  testSelection?: TestSelectionSettings;
  /** `test.runner` of repos.yaml; absent means pytest (a repo run by path, or an older caller). */
  testRunner?: TestRunner;
  /**
   * Set by a command that removes the image it builds once done (`ssr mine`'s judged commits): the
   * image gets a tag of its own, which nobody else shares (repoImageTag); absent, the tag is the content's.
   */
  imageScope?: string;
}

const SHA = /^[0-9a-f]{40}$/;

function isUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location) || /^[^/]+@[^/]+:/.test(location);
}

async function headCommit(repoPath: string): Promise<string> {
  try {
    // Loaded here, not at the top: only a repo given by its path needs it, and every command's start-up paid for it.
    const { simpleGit } = await import('simple-git');
    const sha = (await simpleGit(repoPath).revparse(['HEAD'])).trim();
    if (!SHA.test(sha)) throw new Error(`unexpected rev-parse output "${sha}"`);
    return sha;
  } catch (error) {
    throw new EngineError('repo-not-found', `${repoPath} is not a git repository with a commit (${errorMessage(error)}): --repo and ssr init take a git checkout with at least one commit (git init && git commit there)`);
  }
}

function setupOrigins(repos: LoadedRepos, index: number): string[] {
  const steps = repos.file.repos[index]?.image.setup ?? [];
  return steps.map((_, step) => {
    const line = repos.lines?.lineOf(['repos', index, 'image', 'setup', step]);
    return line === undefined ? `${repos.path} repos[${index}].image.setup[${step}]` : `${repos.path}:${line}`;
  });
}

/**
 * Resolve `--repo <id|path>`: an id from repos.yaml, or a path to any local git repository
 * (then the defaults apply: Python base image, repo at HEAD).
 */
export async function resolveRepo(ref: string, repos: LoadedRepos | undefined): Promise<ResolvedRepo> {
  const entry = repos?.file.repos.find((repo) => repo.id === ref);
  if (entry && repos) {
    const source = entry.source;
    const raw = (source.path ?? source.git)!;
    const location = isUrl(raw) || isAbsolute(raw) ? raw : resolve(repos.baseDir, raw);
    const commit = source.commit ?? (await headCommit(location));
    return {
      id: entry.id,
      location,
      commit,
      image: entry.image,
      thresholds: entry.thresholds,
      limits: entry.limits,
      setupOrigins: setupOrigins(repos, repos.file.repos.indexOf(entry)),
      testSelection: entry.test_selection,
      testRunner: entry.test.runner,
    };
  }
  const path = resolve(ref);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    const known = repos ? repos.file.repos.map((repo) => repo.id).join(', ') : '(no repos.yaml loaded)';
    throw new EngineError(
      'repo-not-found',
      `--repo ${ref}: not an id in repos.yaml (known: ${known}) nor a local directory: pass one of those ids (--repos <file> reads another repos.yaml) or the path of a git repository (\`ssr init <path>\` writes its entry)`,
    );
  }
  const commit = await headCommit(path);
  const slug = basename(path).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'repo';
  const suffix = createHash('sha256').update(path).digest('hex').slice(0, 6);
  return {
    id: `${slug}-${suffix}`,
    location: path,
    commit,
    image: imageRecipeSchema.parse({}),
    thresholds: thresholdsSchema.parse({}),
    limits: limitsSchema.parse({}),
    testSelection: testSelectionSchema.parse({}),
  };
}
