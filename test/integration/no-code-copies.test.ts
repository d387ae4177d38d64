import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { imageRecipeSchema } from '../../src/config/repos-schema.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { prepareSolverSandbox } from '../../src/roles/solver-sandbox.js';
import { dockerClient } from '../../src/sandbox/docker/docker-client.js';
import { ensureRepoImage } from '../../src/sandbox/docker/repo-image.js';
import { createProvider, prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import type { ProgressEvent } from '../../src/util/progress.js';
import { localPackageIndex } from '../helpers/local-package-index.js';

/**
 * A repo whose repos.yaml installs it with `pip: "."` (issue 23 item 7): pip would copy its code
 * into dist-packages/ and /repo/build/lib/, a pristine copy of whatever a bug changes, one `diff`
 * away from the Solver. ssr installs it editable and deletes the build outputs; a shell step
 * that installs a copy anyway is refused, naming the files.
 */
const CORE = 'def add(a, b):\n    """The sum of a and b: what the tests of this fixture check, and what the bug breaks."""\n    return a + b\n';
const docker = dockerClient();
const savedEnv = { ...process.env };
const tags: string[] = [];
let dir: string;
let base: ResolvedRepo;
let artifact: BugArtifact;
let demoPackage: string;

function git(...args: string[]): string {
  const date = '2024-01-01T00:00:00Z';
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  return execFileSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' });
}

/** The diff of one edit of `file`, undone afterwards. */
function diffOf(file: string, from: string, to: string, content: string): string {
  writeFileSync(join(dir, file), content.replace(from, to));
  const diff = git('diff', '--', file);
  git('checkout', '--', file);
  return diff;
}

const recipe = (setup: unknown[]): ResolvedRepo => ({ ...base, image: imageRecipeSchema.parse({ setup }) });

beforeAll(async () => {
  dir = join(mkdtempSync(join(tmpdir(), 'ssr-copies-')), 'minipkg');
  mkdirSync(join(dir, 'minipkg'), { recursive: true });
  mkdirSync(join(dir, 'tests'));
  const test = 'from minipkg import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_zero():\n    assert add(2, 0) == 2\n';
  writeFileSync(join(dir, 'minipkg', 'core.py'), CORE);
  writeFileSync(join(dir, 'minipkg', '__init__.py'), 'from .core import add\n');
  writeFileSync(join(dir, 'setup.py'), 'from setuptools import setup\n\nsetup(name="minipkg", version="1.0", packages=["minipkg"])\n');
  writeFileSync(join(dir, 'tests', 'test_core.py'), test);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'minipkg');
  artifact = {
    bugInject: diffOf('minipkg/core.py', 'return a + b', 'return a - b', CORE),
    testWeaken: diffOf('tests/test_core.py', '    assert add(2, 3) == 5\n', '    pass\n', test),
    testFiles: ['tests/test_core.py'],
    testScript: 'python3 -m pytest -v tests/test_core.py\n',
    testParser: 'print("{}")\n',
  };
  // A scope of this run's own: the tests read what the build itself does (its progress, its refusal), so a
  // same-content image an earlier run left (tags name content, and the dates are fixed) must not stand in.
  base = { ...(await resolveRepo(dir, undefined)), imageScope: dir };
  // pip steps install offline: setuptools from the image (no build isolation), the index a local file:// one (build network none).
  const index = await localPackageIndex();
  demoPackage = index.distribution;
  const conf = join(mkdtempSync(join(tmpdir(), 'ssr-pipconf-')), 'pip.conf');
  writeFileSync(conf, `[global]\nindex-url = ${index.fileUrl}\n`);
  Object.assign(process.env, { PIP_CONFIG_FILE: conf, PIP_NO_BUILD_ISOLATION: 'false' });
  delete process.env.PIP_INDEX_URL;
}, 120_000);

afterAll(async () => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  for (const tag of tags) await docker.getImage(tag).remove({ force: true }).catch(() => undefined);
  if (dir) rmSync(join(dir, '..'), { recursive: true, force: true });
});

describe('no copy of the repo\'s code in its image or the Solver\'s sandbox (real Docker, real pip)', () => {
  it('`pip: "."` is installed editable and the build outputs are deleted: the Solver finds no pristine copy of the file the bug changed', async () => {
    const events: ProgressEvent[] = [];
    // A wheel built into dist/ leaves /repo/build/lib/ and dist/*.whl behind, as `pip install .` itself would.
    const repo = recipe([{ pip: '.' }, 'python3 -m pip wheel -q --no-deps --no-index --no-build-isolation -w dist .']);
    const template = await prepareTemplate(repo, 'docker', (event) => events.push(event));
    tags.push(template.ref);

    const sandbox = await prepareSolverSandbox({ provider: createProvider('docker'), template, artifact });
    try {
      const pristine = createHash('sha256').update(CORE).digest('hex');
      const sameSize = `find / -xdev \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o -type f -size ${Buffer.byteLength(CORE)}c -print0 | xargs -0 -r sha256sum`;
      const found = (await sandbox.exec(sameSize, { timeoutMs: 120_000 })).output;
      expect(found).not.toContain(pristine);
      expect(found).toContain('/repo/minipkg/core.py');
      expect((await sandbox.exec('git status --porcelain --ignored | grep -v egg-info; ls -d build dist 2>&1 | wc -l')).output.trim()).toBe('2');
      // The code under test is /repo's, bug included, from anywhere (the editable install points there).
      expect((await sandbox.exec('cd / && python3 -c "import minipkg; print(minipkg.__file__, minipkg.add(2, 3))"')).output.trim()).toBe('/repo/minipkg/__init__.py -1');
    } finally {
      await sandbox.dispose();
    }
    const messages = events.map((event) => event.message);
    expect(messages).toContain('[1/2] pip: . (installed editable: -e .)');
    expect(messages.find((line) => line.startsWith('deleted '))).toMatch(/\/repo\/build\/lib\/minipkg\/core\.py \(= minipkg\/core\.py\).*\/repo\/dist\/minipkg-1\.0-py3-none-any\.whl/);
  }, 600_000);

  it('bubblewrap: a copy in a build output (build/lib/) is deleted from the template; a copy elsewhere in /repo refuses it', async () => {
    const template = await prepareTemplate(recipe(['mkdir -p build/lib/minipkg && cp minipkg/core.py build/lib/minipkg/']), 'bwrap', () => undefined);
    expect(existsSync(join(template.ref, 'repo', 'build'))).toBe(false);
    expect(existsSync(join(template.ref, 'repo', 'minipkg', 'core.py'))).toBe(true);
    rmSync(template.ref, { recursive: true, force: true });
    // By content, not by name: a copy the tests might need is not deleted behind the recipe's back, it is named.
    await expect(prepareTemplate(recipe(['cp minipkg/core.py settings.txt']), 'bwrap', () => undefined)).rejects.toMatchObject({
      code: 'config-invalid',
      message: expect.stringContaining(`${base.id}: the setup steps left copies of the repo's own code beside its tracked files: /repo/settings.txt (= minipkg/core.py).`),
    });
  }, 300_000);

  it('a shell step that installs a copy outside /repo refuses the build, naming the files and the fix', async () => {
    // The pip step (a dependency from the local index) gives the image pip; the shell step then installs a copy.
    const repo = recipe([{ pip: demoPackage }, 'python3 -m pip install -q --break-system-packages --no-deps --no-index --no-build-isolation .']);
    const build = ensureRepoImage(docker, repo, () => undefined);
    await expect(build).rejects.toMatchObject({
      code: 'config-invalid',
      message: expect.stringMatching(new RegExp(`^${base.id}: the setup steps left copies of the repo's own code beside its tracked files: /usr/local/lib/python3\\.\\d+/dist-packages/minipkg/core\\.py \\(= minipkg/core\\.py\\)\\..*Install the repo editable`)),
    });
  }, 600_000);
});
