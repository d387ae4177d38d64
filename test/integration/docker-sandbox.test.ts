import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { silentProgress } from '../../src/util/progress.js';
import { dockerClient, imageExists } from '../../src/sandbox/docker/docker-client.js';
import { DockerProvider } from '../../src/sandbox/docker/docker-provider.js';
import { OWNER_LABEL, ownerLabelValue, removeOrphanSandboxes } from '../../src/sandbox/docker/orphan-sweep.js';
import { ensureRepoImage, repoImageTag } from '../../src/sandbox/docker/repo-image.js';
import type { Sandbox, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { EngineError } from '../../src/util/engine-error.js';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { dockerTemplate, exampleRepo, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

// What every backend must do (exec, files, timeouts, network, dispose, isolation) is checked by
// sandbox-contract/; this file keeps what is Docker's own: limits, orphans, images.
let repo: ResolvedRepo;
let template: SandboxTemplate;
const provider = new DockerProvider();

beforeAll(async () => {
  repo = await exampleRepo();
  template = await dockerTemplate(repo);
});

/** A template with tighter limits than the repo's defaults. */
function limited(limits: Partial<SandboxTemplate['limits']>): SandboxTemplate {
  return { ...template, limits: { ...template.limits, ...limits } };
}

async function processes(sandbox: Sandbox): Promise<string> {
  return (await sandbox.exec('ps -eo pid,stat,args')).output;
}

describe('DockerSandbox limits', () => {
  it('contains a fork bomb with the pids limit and still returns by its timeout', async () => {
    await withSandbox(limited({ pids: 64 }), async (sandbox) => {
      const started = Date.now();
      const result = await sandbox.exec('bomb() { bomb | bomb & }; bomb; sleep 1000', { timeoutMs: 3000 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.timedOut || result.exitCode !== 0).toBe(true);
      // The sandbox is usable afterwards and nothing of the bomb is left, not even zombies.
      expect((await sandbox.exec('echo alive')).output).toBe('alive\n');
      const left = (await processes(sandbox)).trim().split('\n');
      expect(left.length).toBeLessThan(6);
    });
  });

  it('kills a process that allocates beyond the memory limit', async () => {
    await withSandbox(limited({ memoryMb: 128 }), async (sandbox) => {
      const result = await sandbox.exec(`python3 -c "b = b'x' * (512 * 1024 * 1024); print('survived')"`, { timeoutMs: 60_000 });
      expect(result.exitCode).toBe(137);
      expect(result.output).not.toContain('survived');
    });
  });
});

describe('DockerSandbox stdin', () => {
  it('sends small text stdin in the exec request (no file put, nothing inherited) and anything else by file, exactly', async () => {
    await withSandbox(template, async (sandbox) => {
      const put = vi.spyOn(sandbox, 'writeFile');
      // A test run's stdin is about 120 KB of text: more than one variable's worth, cut mid-character.
      const text = `${'a'.repeat(98_303)}é${'line\n'.repeat(5000)}héllo\n`;
      const sent = await sandbox.exec('cat > /tmp/in; wc -c < /tmp/in; env | grep -c ^SSR_STDIN_; sha256sum < /tmp/in', { stdin: text });
      expect(put).not.toHaveBeenCalled();
      const [bytes, inherited, sum] = sent.output.trim().split('\n');
      expect([bytes, inherited]).toEqual([String(Buffer.byteLength(text)), '0']);
      expect(sum).toContain(createHash('sha256').update(text).digest('hex'));
      const binary = Buffer.from([0, 1, 2, 0xff, 10]);
      expect((await sandbox.exec('od -An -tx1', { stdin: binary })).output.trim()).toBe('00 01 02 ff 0a');
      expect(put).toHaveBeenCalledTimes(1);
    });
  });
});

describe('DockerProvider lifecycle', () => {
  it('removes sandboxes orphaned by dead processes of this host, and only those', async () => {
    const docker = dockerClient();
    const make = (owner: string) => docker.createContainer({ Image: template.ref, Labels: { [OWNER_LABEL]: owner }, HostConfig: { NetworkMode: 'none' } });
    const orphan = await make(`${hostname()}:999999999`);
    const mine = await make(ownerLabelValue());
    const foreign = await make('another-host:999999999');
    try {
      expect(await removeOrphanSandboxes(docker)).toBeGreaterThanOrEqual(1);
      await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
      await expect(mine.inspect()).resolves.toBeDefined();
      await expect(foreign.inspect()).resolves.toBeDefined();
    } finally {
      await Promise.all([orphan, mine, foreign].map((container) => container.remove({ force: true }).catch(() => undefined)));
    }
  });

  it('names the missing image and the command that builds it', async () => {
    await expect(provider.acquire({ ...template, ref: 'ssr-repo-nothing:000000000000' })).rejects.toThrow(/ssr build-image --repo/);
  });
});

describe('repo images', () => {
  const docker = dockerClient();

  it('builds a local repo with its setup commands once, labelled, and reuses it', async () => {
    const tiny = await tinyRepo();
    const withSetup = { ...tiny, image: { ...tiny.image, setup: ['echo built > /ssr/BUILT', 'python3 -c "import calc"'] } };
    const tag = await ensureRepoImage(docker, withSetup, silentProgress);
    expect(tag).toBe(repoImageTag(withSetup));
    const labels = (await docker.getImage(tag).inspect()).Config.Labels;
    expect(labels).toMatchObject({ 'ssr.repo': tiny.id, 'ssr.commit': tiny.commit });
    // Reused, not rebuilt: the second call clones nothing and the tag still names the same image
    // (a wall-clock bound here failed under load).
    const firstId = (await docker.getImage(tag).inspect()).Id;
    const stages: string[] = [];
    expect(await ensureRepoImage(docker, withSetup, (event) => stages.push(event.stage))).toBe(tag);
    expect(stages).not.toContain('clone');
    expect((await docker.getImage(tag).inspect()).Id).toBe(firstId);
    await withSandbox({ ...template, repoId: tiny.id, ref: tag }, async (sandbox) => {
      expect((await sandbox.exec('cat /ssr/BUILT; git log --format=%s')).output).toBe('built\ntest add\nadd\n');
    });
  });

  it('fails a build whose setup command fails, with the command and its output, leaving no image', async () => {
    const tiny = await tinyRepo();
    const broken = { ...tiny, image: { ...tiny.image, setup: ['echo checking; ls /no-such-dir'] } };
    const failure = await ensureRepoImage(docker, broken, silentProgress).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure).toMatchObject({ code: 'image-build-failed' });
    expect((failure as Error).message).toMatch(/ls \/no-such-dir[\s\S]*exited with 2[\s\S]*checking[\s\S]*No such file/);
    expect(await imageExists(docker, repoImageTag(broken))).toBe(false);
  });
});
