import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hostGit } from '../util/host-git.js';
import type { CommitFacts } from './classify-commit.js';
import { HISTORY_LOG_FORMAT, parseHistoryLog } from './history-log.js';

/** The commit's subject, full message and committer date. */
export interface CommitMessage {
  subject: string;
  message: string;
  date: string;
}

/**
 * Read-only access to a repo's history on the host with real git: a local repository is read in
 * place (nothing is written to it); a bundle or URL is cloned bare into a scratch dir first.
 */
export class RepoHistoryReader {
  private constructor(
    private readonly gitDir: string,
    private readonly scratch: string | null,
    private readonly shallow: ReadonlySet<string>,
  ) {}

  /** @throws EngineError `repo-not-found` when `location` is not a git repository git can read or clone. */
  static async open(location: string): Promise<RepoHistoryReader> {
    const isDir = (await stat(location).catch(() => null))?.isDirectory() ?? false;
    let scratch: string | null = null;
    let gitDir = location;
    if (!isDir) {
      scratch = await mkdtemp(join(tmpdir(), 'ssr-mine-git-'));
      gitDir = join(scratch, 'repo.git');
      await hostGit(['clone', '--quiet', '--bare', '--', location, gitDir], { cwd: scratch, what: `git clone ${location}`, code: 'repo-not-found' }).catch(async (error: unknown) => {
        await rm(scratch!, { recursive: true, force: true });
        throw error;
      });
    }
    const shallowFile = await hostGit(['rev-parse', '--git-path', 'shallow'], { cwd: gitDir, what: `reading ${location}`, code: 'repo-not-found' });
    const shallow = await readFile(resolve(gitDir, shallowFile), 'utf8').catch(() => '');
    return new RepoHistoryReader(gitDir, scratch, new Set(shallow.split('\n').filter((line) => line !== '')));
  }

  /** Whether the repository is a shallow clone (its oldest commits' parents are missing). */
  get isShallow(): boolean {
    return this.shallow.size > 0;
  }

  private git(args: string[], what: string): Promise<string> {
    return hostGit(['-c', 'core.quotepath=off', ...args], { cwd: this.gitDir, what, code: 'repo-not-found' });
  }

  /** The full sha of `rev`. @throws EngineError `repo-not-found` naming it when it is no commit here. */
  async resolve(rev: string): Promise<string> {
    return this.git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], `finding commit ${rev}`);
  }

  /**
   * Commits reachable from `tip`, newest first (topological), not those reachable from `since`; at
   * most `max`: each with what {@link classifyCommit} needs and its subject, from one `git log` pass
   * (the cost of sorting a window does not grow in git processes with its length).
   */
  async commits(tip: string, options: { since?: string; max?: number } = {}): Promise<(CommitFacts & { subject: string })[]> {
    const args = ['log', '--topo-order', '--no-color', '--no-renames', '--name-status', `--format=${HISTORY_LOG_FORMAT}`];
    if (options.max !== undefined) args.push(`--max-count=${options.max}`);
    args.push(tip);
    if (options.since !== undefined) args.push(`^${options.since}`);
    const out = await this.git([...args, '--'], `listing the history of ${tip}`);
    return parseHistoryLog(out).map((commit) => ({
      sha: commit.sha,
      parents: commit.parents,
      shallowBoundary: this.shallow.has(commit.sha),
      // git log prints a root's files against the empty tree: they are no change from a parent.
      changed: commit.parents.length === 1 ? commit.changed : [],
      subject: commit.subject,
    }));
  }

  /** `git diff from to -- paths` (text, full index lines) exactly as git prints it; '' when nothing differs. */
  diff(from: string, to: string, paths: readonly string[]): Promise<string> {
    const args = ['-c', 'core.quotepath=off', 'diff', '--no-color', '--no-ext-diff', '--no-renames', '--full-index', from, to, '--', ...paths];
    return hostGit(args, { cwd: this.gitDir, what: `diffing ${from.slice(0, 12)}..${to.slice(0, 12)}`, code: 'repo-not-found', untrimmed: true, maxBuffer: 256 * 1024 * 1024 });
  }

  async message(sha: string): Promise<CommitMessage> {
    const out = await this.git(['show', '-s', '--format=%cI%x00%s%x00%B', sha], `reading the message of ${sha}`);
    const [date = '', subject = '', message = ''] = out.split('\0');
    return { date, subject, message: message.trim() };
  }

  /** Remove the scratch clone, if one was made. */
  async close(): Promise<void> {
    if (this.scratch) await rm(this.scratch, { recursive: true, force: true });
  }
}
