import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadK8sCluster, type K8sCluster } from '../../../../src/sandbox/k8s/k8s-cluster.js';
import { labelValue, RUN_ID } from '../../../../src/sandbox/k8s/k8s-labels.js';
import { removeOrphanPods } from '../../../../src/sandbox/k8s/k8s-orphan-sweep.js';
import { K8sProvider } from '../../../../src/sandbox/k8s/k8s-provider.js';
import { preflightK8s } from '../../../../src/sandbox/k8s/k8s-preflight.js';
import { DENY_ALL_POLICY } from '../../../../src/sandbox/k8s/network-policy.js';
import type { SandboxTemplate } from '../../../../src/sandbox/sandbox.js';
import { FakeKubeApi } from '../../../helpers/k8s/fake-kube-api.js';
import { rejection } from '../../../helpers/rejection.js';

const template: SandboxTemplate = { backend: 'k8s', repoId: 'pyledger', ref: 'registry.local:5000/ssr-repo-pyledger:0123456789ab', limits: { memoryMb: 1536, cpus: 1.5, pids: 256 } };

/** The exact pod a sandbox of `template` is (name and owner labels aside, which the test reads back). */
function expectedPod(name: string): object {
  const quantities = { cpu: '1500m', memory: '1536Mi' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: {
        'app.kubernetes.io/managed-by': 'ssr',
        'ssr.sandbox': 'pyledger',
        'ssr.run': RUN_ID,
        'ssr.owner-host': labelValue(hostname()),
        'ssr.owner-pid': String(process.pid),
      },
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 0,
      containers: [
        {
          name: 'sandbox',
          image: template.ref,
          imagePullPolicy: 'IfNotPresent',
          command: ['bash', '-c', 'trap "" CHLD; exec sleep infinity'],
          workingDir: '/repo',
          resources: { requests: quantities, limits: quantities },
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] }, seccompProfile: { type: 'RuntimeDefault' } },
        },
      ],
    },
  };
}

describe('K8sProvider at the HTTP boundary (a fake API server on 127.0.0.1)', () => {
  let api: FakeKubeApi;
  let dir: string;
  let cluster: K8sCluster;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ssr-k8s-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeEach(async () => {
    api = new FakeKubeApi();
    await api.start();
    cluster = loadK8sCluster({ kubeconfig: api.writeKubeconfig(dir) });
  });
  afterEach(() => api.close());

  it('creates one pod with the exact spec, after the deny-all policy and the orphan sweep, and deletes it on dispose', async () => {
    const sandbox = await new K8sProvider(cluster).acquire(template);
    const name = sandbox.id;
    expect(name).toMatch(/^ssr-pyledger-[0-9a-f]{10}$/);
    const created = api.requests.find((request) => request.method === 'POST' && request.path === '/api/v1/namespaces/ssr/pods');
    expect(created?.body).toEqual(expectedPod(name));
    expect(created?.authorization).toBe('Bearer test-token');
    expect(api.policies.get(DENY_ALL_POLICY)).toMatchObject({
      spec: { podSelector: { matchExpressions: [{ key: 'ssr.sandbox', operator: 'Exists' }] }, policyTypes: ['Ingress', 'Egress'], ingress: [], egress: [] },
    });
    await sandbox.dispose();
    await sandbox.dispose();
    expect(api.calls()).toEqual([
      'POST /apis/networking.k8s.io/v1/namespaces/ssr/networkpolicies',
      'GET /api/v1/namespaces/ssr/pods',
      'POST /api/v1/namespaces/ssr/pods',
      `GET /api/v1/namespaces/ssr/pods/${name}`,
      `DELETE /api/v1/namespaces/ssr/pods/${name}`,
      `GET /api/v1/namespaces/ssr/pods/${name}`,
    ]);
    expect(api.requests[1]!.query.get('labelSelector')).toBe(`ssr.owner-host=${labelValue(hostname())}`);
    expect(api.requests[4]!.query.get('gracePeriodSeconds')).toBe('0');
    expect(api.pods.size).toBe(0);
  });

  it('runs as the image\'s non-root user when it has one, and never as a named or root one', async () => {
    const provider = new K8sProvider(cluster);
    for (const user of ['1000:1000', 'app', '0']) await provider.acquire({ ...template, user });
    const contexts = [...api.pods.values()].map((pod) => pod.spec?.containers[0]?.securityContext);
    expect(contexts.map((context) => [context?.runAsNonRoot, context?.runAsUser])).toEqual([[true, 1000], [undefined, undefined], [undefined, undefined]]);
  });

  it('sweeps the pods of dead processes of this host only, by label', async () => {
    const dead = spawn('true');
    await new Promise((resolve) => dead.on('close', resolve));
    const pod = (name: string, host: string, pid: number): void =>
      void api.pods.set(name, { metadata: { name, labels: { 'ssr.sandbox': 'x', 'ssr.owner-host': host, 'ssr.owner-pid': String(pid) } } });
    pod('orphan', labelValue(hostname()), dead.pid!);
    pod('alive', labelValue(hostname()), process.pid);
    pod('other-host', 'elsewhere', dead.pid!);
    expect(await removeOrphanPods(cluster)).toEqual(['orphan']);
    expect([...api.pods.keys()].sort()).toEqual(['alive', 'other-host']);
  });

  it('puts a changed deny-all policy back instead of trusting it', async () => {
    api.policies.set(DENY_ALL_POLICY, { metadata: { resourceVersion: '7' }, spec: { podSelector: {}, policyTypes: ['Ingress'] } } as never);
    await preflightK8s(cluster);
    expect(api.calls().slice(-3)).toEqual([
      'POST /apis/networking.k8s.io/v1/namespaces/ssr/networkpolicies',
      `GET /apis/networking.k8s.io/v1/namespaces/ssr/networkpolicies/${DENY_ALL_POLICY}`,
      `PUT /apis/networking.k8s.io/v1/namespaces/ssr/networkpolicies/${DENY_ALL_POLICY}`,
    ]);
    expect(api.policies.get(DENY_ALL_POLICY)).toMatchObject({ metadata: { resourceVersion: '8' }, spec: { policyTypes: ['Ingress', 'Egress'], egress: [] } });
  });

  describe('bad input at start-up', () => {
    it('describes a usable cluster after checking every permission with SelfSubjectAccessReview', async () => {
      expect(await preflightK8s(cluster)).toBe(`Kubernetes cluster ${api.url} (context fake), namespace ssr`);
      const reviews = api.requests.filter((request) => request.path.endsWith('/selfsubjectaccessreviews'));
      expect(reviews.map((review) => (review.body as { spec: { resourceAttributes: object } }).spec.resourceAttributes)).toContainEqual({
        namespace: 'ssr', verb: 'create', resource: 'pods', subresource: 'exec', group: '',
      });
      expect(reviews).toHaveLength(9);
    });

    it('names each verb and resource the user may not use', async () => {
      api.denied = new Set(['create pods/exec', 'delete pods']);
      const error = await rejection(preflightK8s(cluster));
      expect(error.code).toBe('sandbox-unavailable');
      expect(error.message).toBe(
        "--sandbox k8s: the kubeconfig's user (context fake) may not delete pods, create pods/exec in namespace ssr; grant the Role of docs/kubernetes.md (\"RBAC\") to the kubeconfig's user",
      );
    });

    it('says when the namespace does not exist, and how to create it', async () => {
      const other = loadK8sCluster({ kubeconfig: api.writeKubeconfig(dir), namespace: 'missing' });
      const error = await rejection(preflightK8s(other));
      expect(error.message).toContain(`namespace missing does not exist on cluster ${api.url} (context fake); create it (kubectl create namespace missing) or pass --k8s-namespace`);
    });

    it('says when the API server does not answer, naming it', async () => {
      const file = api.writeKubeconfig(dir);
      const url = api.url;
      await api.close();
      const error = await rejection(preflightK8s(loadK8sCluster({ kubeconfig: file })));
      expect(error.code).toBe('k8s-unavailable');
      expect(error.message).toMatch(new RegExp(`the Kubernetes API server of cluster ${url} \\(context fake\\) is not reachable \\(ECONNREFUSED\\)`));
      api = new FakeKubeApi();
      await api.start();
    });

    it('says when the kubeconfig does not trust the server\'s certificate', async () => {
      const error = await rejection(preflightK8s(loadK8sCluster({ kubeconfig: api.writeKubeconfig(dir, { trustServer: false }) })));
      expect(error.code).toBe('sandbox-unavailable');
      expect(error.message).toMatch(/the certificate of cluster https:\/\/127\.0\.0\.1:\d+ \(context fake\) is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\); check the cluster's certificate-authority/);
    });

    it('turns a 403 on pod creation into the API server\'s message (verb, resource, namespace) and the fix', async () => {
      api.forbidPodCreate = 'pods "ssr-x" is forbidden: exceeded quota: sandboxes, requested: limits.memory=1536Mi, used: limits.memory=8Gi, limited: limits.memory=8Gi';
      const error = await rejection(new K8sProvider(cluster).acquire(template));
      expect(error.message).toMatch(/^create pod ssr-pyledger-[0-9a-f]{10} from registry\.local:5000\/ssr-repo-pyledger:0123456789ab in namespace ssr: forbidden: pods "ssr-x" is forbidden: exceeded quota/);
      expect(error.message).toContain('grant the Role of docs/kubernetes.md');
    });

    it('reports an image the cluster cannot pull from the pod status, and removes the pod', async () => {
      api.podStatus = () => ({
        phase: 'Pending',
        containerStatuses: [{ name: 'sandbox', image: template.ref, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${template.ref}"` } } }],
      });
      const error = await rejection(new K8sProvider(cluster).acquire(template));
      expect(error.code).toBe('sandbox-unavailable');
      expect(error.message).toBe(
        `the cluster cannot pull image ${template.ref} (ImagePullBackOff: Back-off pulling image "${template.ref}"); push it to a registry the cluster pulls from and pass --k8s-registry, or load it into a kind cluster (kind load docker-image ${template.ref}); see docs/kubernetes.md`,
      );
      expect(api.pods.size).toBe(0);
    });

    it('gives up on a pod no node can take, with the scheduler\'s reason', async () => {
      api.podStatus = () => ({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient memory.' }] });
      const error = await rejection(new K8sProvider(cluster, 400).acquire(template));
      expect(error.message).toMatch(/did not start within 0 s \(unschedulable: 0\/3 nodes are available: 3 Insufficient memory\.\); check the namespace's quota/);
      expect(api.pods.size).toBe(0);
    });

    it.each([
      [{ context: 'nope' }, '--k8s-context nope: no such context in the kubeconfig (it has: fake, bare)'],
      [{ namespace: 'Bad_NS' }, '--k8s-namespace "Bad_NS": expected a namespace name'],
      [{ registry: 'registry.local/' }, '--k8s-registry "registry.local/": expected a registry prefix'],
    ])('refuses %j clearly', (settings, message) => {
      let thrown: unknown;
      try {
        loadK8sCluster({ kubeconfig: api.writeKubeconfig(dir), ...settings });
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error).message).toContain(message);
    });

    it('says when there is no kubeconfig at all instead of trying localhost:8080', () => {
      const saved = { HOME: process.env.HOME, KUBECONFIG: process.env.KUBECONFIG };
      process.env.HOME = dir;
      delete process.env.KUBECONFIG;
      try {
        expect(() => loadK8sCluster({})).toThrow('--sandbox k8s: no Kubernetes cluster configured: set KUBECONFIG (or write ~/.kube/config), or pick one with --k8s-context');
      } finally {
        process.env.HOME = saved.HOME;
        if (saved.KUBECONFIG !== undefined) process.env.KUBECONFIG = saved.KUBECONFIG;
      }
    });

    it('takes the namespace from the flag, else the context, else default', () => {
      const file = api.writeKubeconfig(dir);
      expect(loadK8sCluster({ kubeconfig: file, namespace: 'flag' }).namespace).toBe('flag');
      expect(loadK8sCluster({ kubeconfig: file }).namespace).toBe('ssr');
      expect(loadK8sCluster({ kubeconfig: file, context: 'bare' }).namespace).toBe('default');
    });
  });
});
