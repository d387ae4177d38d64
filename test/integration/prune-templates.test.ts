import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneBwrapTemplates } from '../../src/sandbox/bwrap/prune-templates.js';
import { dockerClient, imageExists } from '../../src/sandbox/docker/docker-client.js';
import { pruneRepoImages, staleRepoImageTags } from '../../src/sandbox/docker/prune-repo-images.js';
import { dockerTemplate, exampleRepo } from '../helpers/sandboxes.js';

const docker = dockerClient();

describe('pruning a repo\'s stale sandbox images (real Docker engine)', () => {
  const id = `prune-${randomBytes(3).toString('hex')}`;
  const name = `ssr-repo-${id}`;
  const neighbour = `ssr-repo-${id}-other:aaaaaaaaaaaa`;
  const tags = { current: `${name}:cccccccccccc`, stale: `${name}:aaaaaaaaaaaa`, older: `${name}:bbbbbbbbbbbb`, used: `${name}:dddddddddddd` };
  let containerId = '';

  beforeAll(async () => {
    // Stand-ins for images of one repo built at several commits: tags of the example repo's image.
    const source = docker.getImage((await dockerTemplate(await exampleRepo())).ref);
    for (const tag of [tags.stale, tags.current, neighbour]) {
      const [repo = '', version = ''] = tag.split(':');
      await source.tag({ repo, tag: version });
    }
    // Two images of their own: one only stale tags point at, one a container was created from.
    const base = await docker.createContainer({ Image: tags.current, Cmd: ['true'], NetworkDisabled: true });
    await base.commit({ repo: name, tag: 'bbbbbbbbbbbb', changes: 'LABEL ssr.test=older' });
    await base.commit({ repo: name, tag: 'dddddddddddd', changes: 'LABEL ssr.test=used' });
    await base.remove();
    containerId = (await docker.createContainer({ Image: tags.used, Cmd: ['true'], NetworkDisabled: true })).id;
  });

  afterAll(async () => {
    await docker.getContainer(containerId).remove({ force: true }).catch(() => undefined);
    for (const tag of [...Object.values(tags), neighbour]) await docker.getImage(tag).remove().catch(() => undefined);
  });

  it('removes the other tags of the repo; keeps the current one, an image a container uses, and other repos\' images', async () => {
    expect(await staleRepoImageTags(docker, id, tags.current)).toEqual([tags.stale, tags.older, tags.used]);
    const result = await pruneRepoImages(docker, id, tags.current);
    expect(result.removed).toEqual([tags.stale, tags.older]);
    expect(result.kept).toEqual([{ ref: tags.used, reason: expect.stringContaining(`used by 1 container(s): ${containerId.slice(0, 12)}`) }]);
    expect(await imageExists(docker, tags.stale)).toBe(false);
    expect(await imageExists(docker, tags.older)).toBe(false);
    expect(await imageExists(docker, tags.current)).toBe(true);
    expect(await imageExists(docker, tags.used)).toBe(true);
    expect(await imageExists(docker, neighbour)).toBe(true);
  });

  it('has nothing left to do the second time', async () => {
    const result = await pruneRepoImages(docker, id, tags.current);
    expect(result.removed).toEqual([]);
    expect(result.kept.map((k) => k.ref)).toEqual([tags.used]);
  });
});

describe('pruning a repo\'s stale bwrap templates', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-prune-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('removes the repo\'s other templates only: not the current one, one being built, or another repo\'s', async () => {
    const names = ['ledger-aaaaaaaaaaaa', 'ledger-bbbbbbbbbbbb', 'ledger-cccccccccccc', 'ledger-dddddddddddd', 'ledger-x-aaaaaaaaaaaa', 'ledgers', 'other-aaaaaaaaaaaa'];
    for (const name of names) {
      await mkdir(join(dir, name, 'repo'), { recursive: true });
      await writeFile(join(dir, name, 'repo', 'file'), 'x');
    }
    await writeFile(join(dir, 'ledger-dddddddddddd.lock'), '123');
    const current = join(dir, 'ledger-cccccccccccc');
    const result = await pruneBwrapTemplates(dir, 'ledger', current);
    expect(result.removed).toEqual([join(dir, 'ledger-aaaaaaaaaaaa'), join(dir, 'ledger-bbbbbbbbbbbb')]);
    expect(result.kept).toEqual([{ ref: join(dir, 'ledger-dddddddddddd'), reason: 'being built by another process' }]);
    for (const name of ['ledger-cccccccccccc', 'ledger-dddddddddddd', 'ledger-x-aaaaaaaaaaaa', 'ledgers', 'other-aaaaaaaaaaaa']) {
      expect(existsSync(join(dir, name, 'repo', 'file'))).toBe(true);
    }
  });

  it('treats a missing templates directory as nothing to prune', async () => {
    expect(await pruneBwrapTemplates(join(dir, 'absent'), 'ledger', '')).toEqual({ removed: [], kept: [] });
  });
});
