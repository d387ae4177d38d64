import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACT_FILES } from '../../../src/artifact/bug-artifact.js';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import { writeArtifactDir } from '../../../src/artifact/write-artifact.js';
import { makeArtifact } from './artifact-factory.js';

let root: string;
let dir: string;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'ssr-artifact-'));
  dir = join(root, 'bug');
  await writeArtifactDir(dir, makeArtifact());
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const put = (name: string, content: string | Buffer): void => writeFileSync(join(dir, name), content);
const drop = (name: string): void => rmSync(join(dir, name), { recursive: true });

async function loadError(path = dir): Promise<{ code: string; message: string }> {
  try {
    await loadArtifactDir(path);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected loadArtifactDir to throw');
}

describe('loadArtifactDir', () => {
  it('loads what writeArtifactDir wrote', async () => {
    expect(await loadArtifactDir(dir)).toEqual(makeArtifact());
  });

  it('reads metadata.json and a commented test_files.txt', async () => {
    put(ARTIFACT_FILES.metadata, '{"strategy": "removal", "parent": null}');
    put(ARTIFACT_FILES.testFiles, '# oracle tests\n\n  tests/test_a.py  \n./tests/test_b.py\r\n\n');
    const artifact = await loadArtifactDir(dir);
    expect(artifact.metadata).toEqual({ strategy: 'removal', parent: null });
    expect(artifact.testFiles).toEqual(['tests/test_a.py', 'tests/test_b.py']);
  });

  it('keeps diffs that do not parse (the existence check judges them)', async () => {
    put(ARTIFACT_FILES.bugInject, 'this is not a diff\n');
    expect((await loadArtifactDir(dir)).bugInject).toBe('this is not a diff\n');
  });

  it.each([
    { name: 'directory missing', setup: () => rmSync(dir, { recursive: true }), message: /artifact directory .*\/bug does not exist/ },
    { name: 'not a directory', setup: () => (rmSync(dir, { recursive: true }), writeFileSync(dir, 'x')), message: /artifact path .*\/bug is not a directory/ },
    { name: 'missing files, all named', setup: () => (drop('test_script.sh'), drop('test_weaken.diff')), message: /: missing test_weaken\.diff, test_script\.sh$/ },
    { name: 'a file that is a directory', setup: () => (drop('test_parser.py'), mkdirSync(join(dir, 'test_parser.py'))), message: /test_parser\.py is not a regular file/ },
    { name: 'diff over 5 MB', setup: () => put('bug_inject.diff', Buffer.alloc(5 * 1024 * 1024 + 1, 0x61)), message: /bug_inject\.diff is 5242881 bytes; the limit is 5 MB \(5242880 bytes\)/ },
    { name: 'script over 1 MB', setup: () => put('test_script.sh', Buffer.alloc(1024 * 1024 + 1, 0x61)), message: /test_script\.sh is 1048577 bytes; the limit is 1 MB/ },
    { name: 'NUL bytes in a diff', setup: () => put('bug_inject.diff', Buffer.from('diff --git\n\0\x01')), message: /bug_inject\.diff: binary data at byte 11 \(NUL byte\); expected a text unified diff/ },
    { name: 'invalid UTF-8 in a diff', setup: () => put('test_weaken.diff', Buffer.from([0x2b, 0xc3, 0x28])), message: /test_weaken\.diff: binary data at byte 2 \(invalid UTF-8\); expected a text unified diff/ },
    { name: 'binary test parser', setup: () => put('test_parser.py', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00])), message: /test_parser\.py: binary data at byte 4 \(NUL byte\); expected a text file/ },
    { name: 'metadata not JSON', setup: () => put('metadata.json', '{"a": 1,}'), message: /metadata\.json is not valid JSON: .*(position|JSON)/ },
    { name: 'metadata an array', setup: () => put('metadata.json', '[1]'), message: /metadata\.json must hold a JSON object, got an array/ },
    { name: 'absolute test path', setup: () => put('test_files.txt', 'tests/a.py\n/etc/passwd\n'), message: /test_files\.txt line 2: absolute path "\/etc\/passwd"/ },
    { name: '.. in a test path', setup: () => put('test_files.txt', 'tests/../../x.py\n'), message: /test_files\.txt line 1: "\.\." segment in "tests\/\.\.\/\.\.\/x\.py"/ },
    { name: 'duplicate test paths', setup: () => put('test_files.txt', 'tests/a.py\n# c\n./tests/a.py\n'), message: /test_files\.txt line 3: duplicate "tests\/a\.py" \(first listed on line 1\)/ },
  ])('$name', async ({ setup, message }) => {
    setup();
    const error = await loadError();
    expect(error).toMatchObject({ name: 'EngineError', code: 'artifact-invalid-input' });
    expect(error.message).toMatch(message);
  });

  it('reports every problem at once', async () => {
    drop('test_parser.py');
    put('metadata.json', 'nope');
    put('test_files.txt', '/abs\n');
    const { message } = await loadError();
    expect(message).toContain('missing test_parser.py');
    expect(message).toContain('metadata.json is not valid JSON');
    expect(message).toContain('absolute path "/abs"');
  });
});
