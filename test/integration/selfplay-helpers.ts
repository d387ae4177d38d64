import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import type { EpisodeRecord } from '../../src/corpus/episode-record.js';
import { readEpisodes } from '../../src/corpus/read-episodes.js';
import { ssrPath } from '../../src/util/ssr-home.js';

/** The repository root (the CLI runs from here). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const OPS = `"""Small arithmetic helpers."""


def clamp(value, low, high):
    if low > high:
        raise ValueError("low must not exceed high")
    if value < low:
        return low
    if value > high:
        return high
    return value


def sign(value):
    if value > 0:
        return 1
    if value < 0:
        return -1
    return 0


def gcd(a, b):
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


def mean(values):
    if not values:
        raise ValueError("mean of nothing")
    return sum(values) / len(values)


def running_total(values):
    total = 0
    out = []
    for value in values:
        total += value
        out.append(total)
    return out
`;

const TEXT = `"""Small text helpers."""


def slugify(text):
    words = [word for word in text.lower().split() if word]
    return "-".join(words)


def truncate(text, limit):
    if limit < 1:
        raise ValueError("limit must be positive")
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "~"


def count_words(text):
    return len(text.split())


def initials(name):
    parts = [part for part in name.split() if part]
    return "".join(part[0].upper() for part in parts)
`;

const TEST_OPS = `import pytest

from minicalc.ops import clamp, gcd, is_prime, mean, running_total, sign


def test_clamp_inside():
    assert clamp(5, 0, 10) == 5


def test_clamp_below():
    assert clamp(-3, 0, 10) == 0


def test_clamp_above():
    assert clamp(12, 0, 10) == 10


def test_clamp_edges():
    assert clamp(0, 0, 10) == 0
    assert clamp(10, 0, 10) == 10


def test_clamp_rejects_bad_range():
    with pytest.raises(ValueError):
        clamp(1, 5, 2)


def test_sign_positive():
    assert sign(7) == 1


def test_sign_negative():
    assert sign(-2) == -1


def test_sign_zero():
    assert sign(0) == 0


def test_gcd_basic():
    assert gcd(12, 18) == 6


def test_gcd_coprime():
    assert gcd(7, 9) == 1


def test_gcd_negative():
    assert gcd(-12, 8) == 4


def test_is_prime_small():
    assert [n for n in range(12) if is_prime(n)] == [2, 3, 5, 7, 11]


def test_is_prime_square():
    assert not is_prime(49)


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_mean_empty():
    with pytest.raises(ValueError):
        mean([])


def test_running_total():
    assert running_total([1, 2, 3]) == [1, 3, 6]


def test_running_total_empty():
    assert running_total([]) == []
`;

const TEST_TEXT = `import pytest

from minicalc.text import count_words, initials, slugify, truncate


def test_slugify_words():
    assert slugify("Hello World") == "hello-world"


def test_slugify_spaces():
    assert slugify("  a   b  ") == "a-b"


def test_slugify_empty():
    assert slugify("") == ""


def test_truncate_short():
    assert truncate("abc", 5) == "abc"


def test_truncate_exact():
    assert truncate("abcde", 5) == "abcde"


def test_truncate_long():
    assert truncate("abcdef", 4) == "abc~"


def test_truncate_rejects_zero():
    with pytest.raises(ValueError):
        truncate("abc", 0)


def test_count_words():
    assert count_words("one two  three") == 3


def test_count_words_empty():
    assert count_words("") == 0


def test_initials():
    assert initials("ada lovelace") == "AL"


def test_initials_extra_spaces():
    assert initials("  grace   hopper ") == "GH"


def test_initials_single():
    assert initials("turing") == "T"
`;

/**
 * `minicalc`: a small pure-Python package (two modules, 29 pytest tests that run in well under a
 * second) at a fixed path with fixed dates, so its commit and image tag are stable. The resume and
 * Docker-down tests play on it: the step loop is what they test, and fast test runs keep them
 * short and keep the procedural policy's outcomes independent of machine load.
 */
export async function miniRepo(): Promise<ResolvedRepo> {
  const dir = ssrPath('test-repos', 'minicalc');
  if (!existsSync(join(dir, '.git'))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, 'minicalc'), { recursive: true });
    await mkdir(join(dir, 'tests'), { recursive: true });
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    const git = (...args: string[]): void => void execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    await writeFile(join(dir, 'minicalc', '__init__.py'), '');
    await writeFile(join(dir, 'minicalc', 'ops.py'), OPS);
    await writeFile(join(dir, 'minicalc', 'text.py'), TEXT);
    await writeFile(join(dir, '.gitignore'), '__pycache__/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'minicalc: ops and text helpers');
    await writeFile(join(dir, 'tests', 'test_ops.py'), TEST_OPS);
    await writeFile(join(dir, 'tests', 'test_text.py'), TEST_TEXT);
    git('add', '-A');
    git('commit', '-q', '-m', 'tests');
  }
  return resolveRepo(dir, undefined);
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * `ssr <args>` as a child process in its own process group (so a test can SIGKILL all of it at
 * once, as `kill -9` of a run would), from the repository root.
 */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = process.env): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Kill a spawned CLI's whole process group with SIGKILL. */
export function killGroup(run: CliRun): void {
  try {
    process.kill(-run.child.pid!, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Poll `check` every 500 ms until it holds (or throw after `timeoutMs`). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Raw lines of episodes.jsonl (every line, not only the latest per id). */
export function episodeLines(out: string): EpisodeRecord[] {
  const path = join(out, 'episodes.jsonl');
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as EpisodeRecord);
}

/** The latest record of each episode, by id. */
export async function episodesById(out: string): Promise<Map<string, EpisodeRecord>> {
  return new Map((await readEpisodes(out)).map((record) => [record.id, record]));
}

/** Ids of every line of every samples/v*.jsonl file. */
export async function sampleIds(out: string): Promise<string[]> {
  const dir = join(out, 'samples');
  const files = existsSync(dir) ? (await readdir(dir)).filter((name) => /^v\d+\.jsonl$/.test(name)) : [];
  const ids: string[] = [];
  for (const file of files) {
    for (const line of (await readFile(join(dir, file), 'utf8')).split('\n')) if (line !== '') ids.push((JSON.parse(line) as { id: string }).id);
  }
  return ids;
}
