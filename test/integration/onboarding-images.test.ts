import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { imageRecipeSchema } from '../../src/config/repos-schema.js';
import { baseImageTag, ensureBaseImage } from '../../src/sandbox/docker/base-image.js';
import { dockerClient, imageExists } from '../../src/sandbox/docker/docker-client.js';
import { currentRepoImageTag, ensureRepoImage } from '../../src/sandbox/docker/repo-image.js';
import { silentProgress } from '../../src/util/progress.js';
import { localPackageIndex, serveIndex, type LocalPackageIndex } from '../helpers/local-package-index.js';
import { dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

// Onboarding a repo's image (issue 15): pip steps against the user's own package index (a file://
// index in a pip.conf, an HTTP index on 127.0.0.1) and image.base from an image the user already has.
const docker = dockerClient();
let tiny: ResolvedRepo;
let index: LocalPackageIndex;
const savedEnv = { ...process.env };

beforeAll(async () => {
  tiny = await tinyRepo();
  index = await localPackageIndex();
});

afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

/** A step unique to this run, so the image is really built (an image of the same recipe would be reused). */
const fresh = (): string => `echo ${randomUUID()} > /ssr-nonce`;

const recipe = (image: object): ResolvedRepo => ({
  ...tiny,
  image: imageRecipeSchema.parse(image),
  setupOrigins: ['/srv/repos.yaml:7', '/srv/repos.yaml:8'],
});

const built: string[] = [];
afterAll(async () => {
  for (const tag of [...built, 'ssr-test-userbase:v1', 'ssr-test-nogit:v1']) await docker.getImage(tag).remove({ force: true }).catch(() => undefined);
});

/** Build a repo image this file removes again at the end. */
async function build(repo: ResolvedRepo): Promise<string> {
  const tag = await ensureRepoImage(docker, repo, silentProgress);
  built.push(tag);
  return tag;
}

async function run(tag: string, command: string): Promise<string> {
  return withSandbox({ ...(await dockerTemplate(tiny)), ref: tag }, async (sandbox) => (await sandbox.exec(command)).output);
}

describe('pip setup steps', () => {
  it('install from a file:// index named in the pip.conf of PIP_CONFIG_FILE, mounted for the build only', async () => {
    const conf = join(mkdtempSync(join(tmpdir(), 'ssr-pipconf-')), 'pip.conf');
    writeFileSync(conf, `[global]\nindex-url = ${index.fileUrl}\n`);
    process.env.PIP_CONFIG_FILE = conf;
    delete process.env.PIP_INDEX_URL;
    const repo = recipe({ setup: [fresh(), { pip: [index.distribution] }, `python3 -c "import ${index.module}; print(${index.module}.ANSWER)" > /ssr-answer`] });
    const tag = await build(repo);
    const output = await run(tag, `cat /ssr-answer; python3 -c "import ${index.module}"; echo import=$?; cat /run/ssr-build/pip.conf 2>/dev/null | wc -c; ls ${index.root} 2>/dev/null | wc -l`);
    // Installed; nothing of the index or its config is in the image (only the empty mount points).
    expect(output).toMatch(/^42\nimport=0\n0\n0\n$/);
  }, 600_000);

  it('install from an HTTP index on the host (PIP_INDEX_URL), the build container on the host network', async () => {
    const served = await serveIndex(index);
    try {
      process.env.PIP_INDEX_URL = served.url;
      delete process.env.PIP_CONFIG_FILE;
      const repo = recipe({ setup: [fresh(), { pip: `${index.distribution}==1.0` }] });
      const tag = await build(repo);
      expect(served.requests.some((url) => url.includes(index.distribution))).toBe(true);
      expect(await run(tag, `python3 -c "import ${index.module}; print(${index.module}.ANSWER)"`)).toBe('42\n');
    } finally {
      served.server.close();
    }
  }, 600_000);

  it('fails with the repos.yaml line, the step, the index used and pip\'s own tail', async () => {
    process.env.PIP_INDEX_URL = index.fileUrl;
    delete process.env.PIP_CONFIG_FILE;
    const repo = recipe({ setup: ['true', { pip: ['ssr-no-such-package'] }] });
    const failure = (await ensureRepoImage(docker, repo, silentProgress).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/^\/srv\/repos\.yaml:8: setup step `pip: ssr-no-such-package` exited with 1\n/);
    expect(failure.message).toContain(`${index.root} (mounted read-only)`);
    expect(failure.message).toMatch(/No matching distribution found for ssr-no-such-package/);
  }, 600_000);
});

describe('image.base', () => {
  let ours: string;

  beforeAll(async () => {
    ours = await ensureBaseImage(docker, imageRecipeSchema.parse({}), silentProgress);
    expect(ours).toBe(baseImageTag(imageRecipeSchema.parse({})));
  });

  it('layers the repo, git settings and setup steps onto an image the user has', async () => {
    execFileSync('docker', ['tag', ours, 'ssr-test-userbase:v1']);
    const repo = recipe({ base: 'ssr-test-userbase:v1', setup: ['echo layered > /ssr-layered', fresh()] });
    const tag = await build(repo);
    expect(await run(tag, 'cat /ssr-layered; git -C /repo log --format=%s; git config --system user.name')).toBe('layered\ntest add\nadd\nssr\n');
    // ssr doctor finds the same tag without building; a re-tagged base means another image.
    expect(await currentRepoImageTag(docker, repo)).toBe(tag);
    execFileSync('docker', ['tag', tag, 'ssr-test-userbase:v1']);
    expect(await currentRepoImageTag(docker, repo)).not.toBe(tag);
  }, 600_000);

  it('lists what the image lacks (git, patch) instead of failing later', async () => {
    const context = mkdtempSync(join(tmpdir(), 'ssr-nogit-'));
    writeFileSync(join(context, 'Dockerfile'), `FROM ${ours}\nRUN rm -f /usr/bin/git /usr/bin/patch\n`);
    execFileSync('docker', ['build', '-q', '--network', 'none', '-t', 'ssr-test-nogit:v1', context]);
    const failure = (await ensureRepoImage(docker, recipe({ base: 'ssr-test-nogit:v1' }), silentProgress).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/image\.base ssr-test-nogit:v1 lacks what an ssr sandbox needs after the setup steps:\n {2}- git \(.*\)\n {2}- patch \(.*\)/);
    expect(failure.message).not.toContain('python3 (');
  }, 600_000);

  it('says an image that is not on the machine cannot be pulled', async () => {
    const failure = (await ensureRepoImage(docker, recipe({ base: 'ssr-test-absent:v9' }), silentProgress).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/image\.base ssr-test-absent:v9: no such image on this machine, and pulling it failed/);
    expect(await imageExists(docker, 'ssr-test-absent:v9')).toBe(false);
    await expect(currentRepoImageTag(docker, recipe({ base: 'ssr-test-absent:v9' }))).rejects.toThrow(/image\.base ssr-test-absent:v9 is not on this machine/);
  }, 120_000);
});
