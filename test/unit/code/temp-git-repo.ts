import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'ssr test',
  GIT_AUTHOR_EMAIL: 'ssr@example.invalid',
  GIT_COMMITTER_NAME: 'ssr test',
  GIT_COMMITTER_EMAIL: 'ssr@example.invalid',
};

/** A real git repository in a temp dir, for checking diffs against `git diff` / `git apply`. */
export class TempGitRepo {
  private constructor(readonly dir: string) {}

  /** A repo whose first commit holds `files` (path → content). */
  static create(files: Record<string, string | Buffer>): TempGitRepo {
    const repo = new TempGitRepo(mkdtempSync(join(tmpdir(), 'ssr-git-')));
    repo.git('init', '-q');
    repo.git('config', 'core.autocrlf', 'false');
    for (const [path, content] of Object.entries(files)) repo.write(path, content);
    repo.git('add', '-A');
    repo.git('commit', '-q', '--allow-empty', '-m', 'init');
    return repo;
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: GIT_ENV, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  }

  write(path: string, content: string | Buffer): void {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), content);
  }

  remove(path: string): void {
    rmSync(join(this.dir, path));
  }

  move(from: string, to: string): void {
    mkdirSync(dirname(join(this.dir, to)), { recursive: true });
    renameSync(join(this.dir, from), join(this.dir, to));
  }

  chmod(path: string, mode: number): void {
    chmodSync(join(this.dir, path), mode);
  }

  /** The work tree (including untracked files and modes) as a git tree id. */
  tree(): string {
    this.git('add', '-A');
    return this.git('write-tree').trim();
  }

  /** `git diff` of the work tree against HEAD, with renames and binary data. */
  diff(...extra: string[]): string {
    this.git('add', '-A');
    return this.git('diff', '--cached', '-M', '--binary', ...extra);
  }

  /** Back to HEAD exactly. */
  reset(): void {
    this.git('reset', '-q', '--hard', 'HEAD');
    this.git('clean', '-qfdx');
  }

  /** `git apply` the diff to the work tree; throws with git's stderr if it does not apply. */
  apply(diff: string): void {
    execFileSync('git', ['apply', '-'], { cwd: this.dir, env: GIT_ENV, input: diff, stdio: ['pipe', 'pipe', 'pipe'] });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
