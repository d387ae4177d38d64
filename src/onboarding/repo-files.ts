import { hostGit } from '../util/host-git.js';

/** The tracked files of a repo at one commit: what its image will be built from, not the work tree. */
export interface RepoFiles {
  paths: readonly string[];
  /** The file's text at the commit; undefined when it is not there. */
  read(path: string): Promise<string | undefined>;
}

/** Read the tree of `commit` in the local repository `dir` with host git. */
export async function repoFilesAt(dir: string, commit: string): Promise<RepoFiles> {
  const listing = await hostGit(['ls-tree', '-r', '-z', '--name-only', commit], { cwd: dir, what: `listing the files of ${dir} at ${commit.slice(0, 12)}`, code: 'repo-not-found' });
  const paths = listing.split('\0').filter(Boolean);
  const known = new Set(paths);
  const cache = new Map<string, Promise<string>>();
  return {
    paths,
    read(path) {
      if (!known.has(path)) return Promise.resolve(undefined);
      if (!cache.has(path)) cache.set(path, hostGit(['show', `${commit}:${path}`], { cwd: dir, what: `reading ${path}` }));
      return cache.get(path)!;
    },
  };
}

/** A RepoFiles over an in-memory map (tests, and detectors' own table tests). */
export function repoFilesOf(files: Record<string, string>): RepoFiles {
  return { paths: Object.keys(files).sort(), read: (path) => Promise.resolve(files[path]) };
}
