import { readdirSync, readFileSync, rmSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bugArtifactSchema } from '../../../src/artifact/bug-artifact.js';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import { writeArtifactDir } from '../../../src/artifact/write-artifact.js';
import { makeArtifact } from './artifact-factory.js';

let root: string;
beforeEach(() => void (root = mkdtempSync(join(tmpdir(), 'ssr-write-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('writeArtifactDir', () => {
  it('writes the five files with the contract names, the script executable, and no leftovers', async () => {
    const dir = join(root, 'nested', 'bug-1');
    const artifact = makeArtifact({ metadata: { strategy: 'history' } });
    await writeArtifactDir(dir, artifact);
    expect(readdirSync(dir).sort()).toEqual(['bug_inject.diff', 'metadata.json', 'test_files.txt', 'test_parser.py', 'test_script.sh', 'test_weaken.diff']);
    expect(readFileSync(join(dir, 'bug_inject.diff'), 'utf8')).toBe(artifact.bugInject);
    expect(readFileSync(join(dir, 'test_files.txt'), 'utf8')).toBe('tests/test_mod.py\n');
    expect(statSync(join(dir, 'test_script.sh')).mode & 0o111).not.toBe(0);
    expect(readdirSync(join(root, 'nested'))).toEqual(['bug-1']);
    expect(await loadArtifactDir(dir)).toEqual(artifact);
  });

  it('omits metadata.json when there is none', async () => {
    await writeArtifactDir(join(root, 'b'), makeArtifact());
    expect(readdirSync(join(root, 'b'))).not.toContain('metadata.json');
  });

  it('refuses an existing directory unless asked to replace it', async () => {
    const dir = join(root, 'b');
    await writeArtifactDir(dir, makeArtifact());
    await expect(writeArtifactDir(dir, makeArtifact({ testScript: 'new\n' }))).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/already exists/) });
    await writeArtifactDir(dir, makeArtifact({ testScript: 'new\n' }), { ifExists: 'replace' });
    expect((await loadArtifactDir(dir)).testScript).toBe('new\n');
    expect(readdirSync(root)).toEqual(['b']);
  });

  it('rejects an artifact the schema rejects, writing nothing', async () => {
    await expect(writeArtifactDir(join(root, 'b'), makeArtifact({ testFiles: ['/abs.py'] }))).rejects.toThrow(/absolute path/);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('bugArtifactSchema', () => {
  it.each([
    ['absolute path', ['/x.py'], /absolute path/],
    ['.. segment', ['a/../../x.py'], /"\.\." segment/],
    ['duplicate', ['a.py', 'a.py'], /duplicate "a\.py"/],
    ['newline', ['a\nb.py'], /control character/],
  ])('rejects test files with %s', (_name, testFiles, message) => {
    const result = bugArtifactSchema.safeParse(makeArtifact({ testFiles }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(message);
  });

  it('rejects unknown keys', () => {
    expect(bugArtifactSchema.safeParse({ ...makeArtifact(), extra: 1 }).success).toBe(false);
  });
});
