import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { FakeKubeApi } from '../../helpers/k8s/fake-kube-api.js';

/**
 * `--sandbox k8s` and its flags through the real CLI, against the fake API server: bad input is
 * refused at start-up, before any image or sandbox, with exit 2 and the cluster's own words.
 */
describe('ssr --sandbox k8s at start-up', () => {
  let api: FakeKubeApi;
  let dir: string;
  const saved = process.env.KUBECONFIG;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ssr-k8s-cli-'));
    api = new FakeKubeApi();
    await api.start();
    process.env.KUBECONFIG = api.writeKubeconfig(dir);
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [['--k8s-namespace', 'missing'], 'namespace missing does not exist on cluster', '/namespaces/missing/'],
    [['--k8s-context', 'bare'], 'namespace default does not exist on cluster', '/namespaces/default/'],
  ])('test-run %j names the missing namespace and how to create it', async (flags, message, path) => {
    const before = api.requests.length;
    const run = await runCli(['test-run', '--repo', 'pyledger', '--sandbox', 'k8s', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('kubectl create namespace');
    expect(api.requests.slice(before).map((request) => request.path).at(-1)).toContain(path);
    expect(api.requests.slice(before).some((request) => request.path.endsWith('/pods'))).toBe(false);
  });

  it('lists the permissions the user lacks', async () => {
    api.denied = new Set(['create pods']);
    try {
      const run = await runCli(['test-run', '--repo', 'pyledger', '--sandbox', 'k8s']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("may not create pods in namespace ssr; grant the Role of docs/kubernetes.md");
    } finally {
      api.denied = new Set();
    }
  });
});
