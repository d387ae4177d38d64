import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxBackend, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { applyDiff } from '../../src/workspace/apply-diff.js';
import { diffAgainstHead } from '../../src/workspace/diff-paths.js';
import { reinitGit } from '../../src/workspace/reinit-git.js';
import { restoreFiles, type RestoreOutcome } from '../../src/workspace/restore-files.js';
import { bwrapTemplate, dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

/** Put one file back to HEAD (or delete it): what the validator's inverse states do. */
async function revertFile(sandbox: Sandbox, path: string): Promise<RestoreOutcome> {
  return (await restoreFiles(sandbox, [path])).outcomes[0]!.outcome;
}

const ODD = 'tests/odd [x] $y*.py';

/**
 * Each test gets a fresh sandbox of the tiny repo plus one fixture commit (which becomes HEAD, the
 * "original" state): a 30-line file, a file without a final newline, a binary file, files to
 * rename and delete, and a path full of shell and pathspec metacharacters.
 */
const FIXTURE = `
set -e
seq 1 30 | sed 's/^/line /' > a.py
printf 'no newline' > b.txt
printf '\\000\\001bin' > bin.dat
echo old > old.txt
echo del > del.txt
echo odd > '${ODD}'
git add -A
git -c user.name=t -c user.email=t@t commit -q -m fixture
`;

async function sh(sandbox: Sandbox, command: string): Promise<string> {
  const result = await sandbox.exec(command);
  if (result.exitCode !== 0) throw new Error(`${command} → exit ${result.exitCode}: ${result.output}`);
  return result.output;
}

/** `git status` including ignored files: any littering (.rej, .orig, conflict state) shows up here. */
const status = (sandbox: Sandbox): Promise<string> => sh(sandbox, 'git status --porcelain --ignored --untracked-files=all');

/** The full edit the tests round-trip: modify, no-newline edit, rename, delete, add (in a new dir, with a space), binary. */
const EDIT = `
set -e
sed -i 's/^line 15$/LINE 15/' a.py
printf 'no newline, changed' > b.txt
mv old.txt new.txt
rm del.txt
mkdir -p pkg && echo added > 'pkg/new file.py'
printf '\\000\\002bin' > bin.dat
`;

describe.each<[SandboxBackend, (repo: Awaited<ReturnType<typeof tinyRepo>>) => Promise<SandboxTemplate>]>([
  ['docker', dockerTemplate],
  ['bwrap', bwrapTemplate],
])('workspace operations (%s)', (_backend, makeTemplate) => {
  let template: SandboxTemplate;
  beforeAll(async () => {
    template = await makeTemplate(await tinyRepo());
  });
  const inFixture = (fn: (sandbox: Sandbox) => Promise<void>) => () =>
    withSandbox(template, async (sandbox) => {
      await sh(sandbox, FIXTURE);
      await fn(sandbox);
    });

  it(
    'diffAgainstHead covers new files, deletions, renames, binaries and missing final newlines, and keeps the index',
    inFixture(async (sandbox) => {
      await sh(sandbox, EDIT);
      const before = await status(sandbox);
      const diff = await diffAgainstHead(sandbox);
      expect(diff).toContain('diff --git a/a.py b/a.py\n');
      expect(diff).toContain('+LINE 15\n');
      expect(diff).toMatch(/-no newline\n\\ No newline at end of file\n\+no newline, changed\n\\ No newline at end of file/);
      expect(diff).toMatch(/rename from old\.txt\nrename to new\.txt/);
      expect(diff).toMatch(/diff --git a\/del\.txt b\/del\.txt\ndeleted file mode/);
      expect(diff).toMatch(/diff --git a\/pkg\/new file\.py b\/pkg\/new file\.py\nnew file mode/);
      expect(diff).toContain('GIT binary patch');
      expect(await status(sandbox)).toBe(before);
      expect((await sandbox.exec('git diff --cached --quiet')).exitCode).toBe(0);

      const limited = await diffAgainstHead(sandbox, ['a.py', '/repo/pkg/new file.py', 'never-existed.txt']);
      expect(limited.match(/^diff --git .*$/gm)).toEqual(['diff --git a/a.py b/a.py', 'diff --git a/pkg/new file.py b/pkg/new file.py']);
      expect(await diffAgainstHead(sandbox, [])).toBe('');
    }),
  );

  it(
    'a diff round-trips: restore everything, apply it (git apply), get the same diff; reverse it back to clean',
    inFixture(async (sandbox) => {
      await sh(sandbox, EDIT);
      const diff = await diffAgainstHead(sandbox);
      await restoreFiles(sandbox, ['a.py', 'b.txt', 'old.txt', 'new.txt', 'del.txt', 'pkg/new file.py', 'bin.dat']);
      await sh(sandbox, 'rmdir pkg 2>/dev/null || true');
      expect(await status(sandbox)).toBe('');

      expect(await applyDiff(sandbox, diff, { label: 'round-trip' })).toMatchObject({ status: 'applied', method: 'git-apply' });
      expect(await diffAgainstHead(sandbox)).toBe(diff);
      expect(await applyDiff(sandbox, diff, { reverse: true })).toMatchObject({ status: 'applied', method: 'git-apply' });
      expect(await status(sandbox)).toBe('');
    }),
  );

  it(
    'keeps a same-size edit made in the second its index entry was written ("racy git"), though it diffs on a copy of the index',
    inFixture(async (sandbox) => {
      // Index entry and edit in one second, in place (same inode, same size): only git's racy check
      // sees it, and that check needs the index copy to keep the index's mtime. The diff runs a second later.
      const edit = "touch a.py && git add a.py && o=$(grep -bo '^line 15$' a.py | cut -d: -f1) && printf LINE | dd of=a.py bs=1 seek=$o conv=notrunc status=none";
      await sh(sandbox, `${edit} && sleep 1.2`);
      expect(await diffAgainstHead(sandbox, ['a.py'])).toContain('+LINE 15');
    }),
  );

  it(
    'falls back to git apply --3way when the context moved in a way only a merge can resolve',
    inFixture(async (sandbox) => {
      await sh(sandbox, "sed -i 's/^line 15$/LINE 15/' a.py");
      const patch = await diffAgainstHead(sandbox, ['a.py']); // made against HEAD's blob: it has an index line
      await revertFile(sandbox, 'a.py');
      await sh(sandbox, "sed -i 's/^line 12$/LINE 12/' a.py"); // a context line of the hunk changes
      const result = await applyDiff(sandbox, patch, { label: 'three-way' });
      expect(result).toMatchObject({ status: 'applied', method: 'git-apply-3way' });
      expect(await sh(sandbox, 'grep -n LINE a.py')).toBe('12:LINE 12\n15:LINE 15\n');
      expect(await status(sandbox)).toBe(' M a.py\n');
    }),
  );

  it(
    'the 3-way fallback sees an edit that only git\'s racy check can see (index written in the edit\'s second)',
    inFixture(async (sandbox) => {
      await sh(sandbox, "sed -i 's/^line 15$/LINE 15/' a.py");
      const patch = await diffAgainstHead(sandbox, ['a.py']);
      await revertFile(sandbox, 'a.py');
      // What a busy machine does by chance (the index entry, the index and a same-size edit of the
      // same inode all in one second, the apply a second later), made certain: the entry's and the
      // edit's mtime are pinned to the index's, and ctime is not compared.
      const pinned = '@1700000000';
      await sh(sandbox, `git config core.trustctime false && touch -d ${pinned} a.py && git update-index -q --refresh && touch -d ${pinned} .git/index`);
      await sh(sandbox, `o=$(grep -bo '^line 12$' a.py | cut -d: -f1) && printf LINE | dd of=a.py bs=1 seek=$o conv=notrunc status=none && touch -d ${pinned} a.py`);
      expect(await sh(sandbox, 'git diff --name-only')).toBe('a.py\n'); // git itself sees the edit (and, unlike status, writes no index)
      const result = await applyDiff(sandbox, patch, { label: 'racy' });
      expect(result).toMatchObject({ status: 'applied', method: 'git-apply-3way' });
      expect(await sh(sandbox, 'grep -n LINE a.py')).toBe('12:LINE 12\n15:LINE 15\n');
    }),
  );

  it(
    'falls back to patch --fuzz when neither git apply works (context changed, no base blob)',
    inFixture(async (sandbox) => {
      // A hand-written hunk whose first context line is wrong and that names no blob.
      const fuzzy = '--- a/a.py\n+++ b/a.py\n@@ -12,7 +12,7 @@\n line twelve-ish\n line 13\n line 14\n-line 15\n+FUZZ 15\n line 16\n line 17\n line 18';
      const result = await applyDiff(sandbox, fuzzy, { label: 'fuzzy' });
      expect(result).toMatchObject({ status: 'applied', method: 'patch-fuzz' });
      expect(await sh(sandbox, 'grep -n FUZZ a.py')).toBe('15:FUZZ 15\n');
      expect(await status(sandbox)).toBe(' M a.py\n'); // no .orig or .rej left behind
    }),
  );

  it.each<[string, (sandbox: Sandbox) => Promise<string>, RegExp]>([
    ['garbage', async () => 'this is not a diff\n', /No valid patches/],
    [
      'a real 3-way conflict (a merge would leave markers)',
      async (sandbox) => {
        await sh(sandbox, "sed -i 's/^line 15$/NEW 15/' a.py");
        const patch = await diffAgainstHead(sandbox, ['a.py']);
        await revertFile(sandbox, 'a.py');
        return patch;
      },
      /with conflicts/,
    ],
    [
      'a patch that would apply only half (its second file is missing)',
      async () => '--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+TWO\n line 3\n--- a/nope.py\n+++ b/nope.py\n@@ -1,1 +1,1 @@\n-x\n+y\n',
      /nope\.py/,
    ],
  ])('reports %s as failed with all three attempts and leaves the tree untouched', (_name, makePatch, threeWayOutput) =>
    inFixture(async (sandbox) => {
      const patch = await makePatch(sandbox);
      await sh(sandbox, "sed -i 's/^line 15$/OTHER 15/' a.py");
      const before = await status(sandbox);
      const content = await sandbox.readFile('a.py');
      const result = await applyDiff(sandbox, patch);
      expect(result.status).toBe('failed');
      if (result.status !== 'failed') return;
      expect(result.attempts.map((attempt) => attempt.method)).toEqual(['git-apply', 'git-apply-3way', 'patch-fuzz']);
      expect(result.attempts.every((attempt) => attempt.exitCode !== 0 && attempt.output.length > 0)).toBe(true);
      expect(result.attempts[1]?.output).toMatch(threeWayOutput);
      expect(await status(sandbox)).toBe(before);
      expect(await sandbox.readFile('a.py')).toEqual(content);
    })(),
  );

  it(
    'applies an empty diff trivially',
    inFixture(async (sandbox) => {
      expect(await applyDiff(sandbox, '  \n')).toEqual({ status: 'applied', method: 'git-apply', output: '' });
    }),
  );

  it(
    'restoreFiles puts files back to HEAD or delete them, in one exec for the whole list',
    inFixture(async (sandbox) => {
      const original = await sandbox.readFile(ODD);
      await sh(sandbox, `${EDIT}\necho changed > '${ODD}'`);
      expect(await revertFile(sandbox, ODD)).toBe('restored');
      expect(await sandbox.readFile(ODD)).toEqual(original);
      expect(await revertFile(sandbox, 'pkg/new file.py')).toBe('removed');

      let execs = 0;
      const counting = new Proxy(sandbox, {
        get: (target, key, receiver) => {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key !== 'exec' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          return (...args: Parameters<Sandbox['exec']>) => {
            execs += 1;
            return target.exec(...args);
          };
        },
      });
      const result = await restoreFiles(counting, ['./a.py', 'b.txt', 'del.txt', 'new.txt', 'old.txt', 'bin.dat', 'a.py']);
      expect(execs).toBe(1);
      expect(result.outcomes).toEqual([
        { path: 'a.py', outcome: 'restored' },
        { path: 'b.txt', outcome: 'restored' },
        { path: 'del.txt', outcome: 'restored' },
        { path: 'new.txt', outcome: 'removed' },
        { path: 'old.txt', outcome: 'restored' },
        { path: 'bin.dat', outcome: 'restored' },
      ]);
      expect(await status(sandbox)).toBe('');
      await expect(revertFile(sandbox, '../etc/passwd')).rejects.toMatchObject({ code: 'artifact-invalid-input' });
    }),
  );

  it(
    'reinitGit leaves exactly one commit, with everything in it and no trace of the old history',
    inFixture(async (sandbox) => {
      const oldHead = (await sh(sandbox, 'git rev-parse HEAD')).trim();
      await sh(sandbox, EDIT);
      const { commit } = await reinitGit(sandbox);
      expect(await sh(sandbox, 'git rev-list --all --count')).toBe('1\n');
      expect(await sh(sandbox, 'git rev-parse HEAD')).toBe(`${commit}\n`);
      expect(await sh(sandbox, 'git log --format=%s')).toBe('Initial commit\n');
      expect(await status(sandbox)).toBe('');
      expect(await sh(sandbox, 'git ls-files')).toContain('pkg/new file.py');
      expect((await sandbox.exec(`git cat-file -e ${oldHead}`)).exitCode).not.toBe(0);
    }),
  );
});
