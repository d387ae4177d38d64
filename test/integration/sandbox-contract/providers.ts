import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BwrapProvider } from '../../../src/sandbox/bwrap/bwrap-provider.js';
import { probeCgroupLimits } from '../../../src/sandbox/bwrap/cgroup-probe.js';
import { CGROUP_PARENT } from '../../../src/sandbox/bwrap/cgroup-values.js';
import { dockerClient } from '../../../src/sandbox/docker/docker-client.js';
import { DockerProvider } from '../../../src/sandbox/docker/docker-provider.js';
import { OWNER_LABEL, ownerLabelValue } from '../../../src/sandbox/docker/orphan-sweep.js';
import { k8sCluster } from '../../../src/sandbox/k8s/k8s-cluster.js';
import { k8sStatus } from '../../../src/sandbox/k8s/k8s-error.js';
import { labelSelector, ownerLabels } from '../../../src/sandbox/k8s/k8s-labels.js';
import { K8sProvider } from '../../../src/sandbox/k8s/k8s-provider.js';
import { prepareTemplate } from '../../../src/sandbox/sandbox-factory.js';
import { PooledProvider } from '../../../src/sandbox/pool/pooled-provider.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { silentProgress } from '../../../src/util/progress.js';
import { ssrPath } from '../../../src/util/ssr-home.js';
import { bwrapTemplate, dockerTemplate, exampleRepo } from '../../helpers/sandboxes.js';

/**
 * One backend under the Sandbox contract: a row of the contract suite. A new provider (many
 * Docker engines, Kubernetes) joins the suite by adding a row here.
 */
export interface ContractProvider {
  /** Name in the test titles. */
  readonly name: string;
  /** Why this row cannot run on this machine (shown as a skipped test); absent: it runs. */
  readonly skip?: string;
  /**
   * Whether the sandbox has no network device but loopback. A Kubernetes pod always has one
   * (the CNI gives it), and the deny-all NetworkPolicy drops its traffic instead.
   */
  readonly loopbackOnly: boolean;
  /** The template every check acquires from: the example repo's, built once by the global setup. */
  template(): Promise<SandboxTemplate>;
  provider(): SandboxProvider;
  /**
   * What of `sandbox` exists outside it, in the backend's own words (a container, a directory, a
   * cgroup): something while the sandbox lives, nothing once it is disposed.
   */
  residue(sandbox: Sandbox): Promise<string[]>;
  /**
   * Every sandbox of this process the backend still holds (handed out or started ahead of
   * demand): nothing once each sandbox and the provider itself are disposed.
   */
  leftovers(): Promise<string[]>;
}

/** Names in `dir` that end with the sandbox id (`<owner pid>-<id>` on bwrap), as full paths. */
async function entriesOf(dir: string, sandboxId: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith(`-${sandboxId}`)).map((name) => join(dir, name));
}

const docker: ContractProvider = {
  name: 'docker',
  loopbackOnly: true,
  template: async () => dockerTemplate(await exampleRepo()),
  provider: () => new DockerProvider(),
  async residue(sandbox) {
    const found = await dockerClient()
      .getContainer(sandbox.id)
      .inspect()
      .then(
        () => true,
        (error: { statusCode?: number }) => (error.statusCode === 404 ? false : Promise.reject(error)),
      );
    return found ? [`container ${sandbox.id}`] : [];
  },
  async leftovers() {
    const containers = await dockerClient().listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${ownerLabelValue()}`] } });
    return containers.map((container) => `container ${container.Id.slice(0, 12)} (${container.State})`);
  },
};

/** Docker behind a warm pool (`--warm 2`): the same contract, sandboxes handed out from the pool. */
const warmDocker: ContractProvider = {
  ...docker,
  name: 'docker --warm 2',
  provider: () => new PooledProvider(new DockerProvider(), 2),
};

const bwrap: ContractProvider = {
  name: 'bwrap',
  loopbackOnly: true,
  template: async () => bwrapTemplate(await exampleRepo()),
  provider: () => new BwrapProvider(),
  async residue(sandbox) {
    const { hierarchies } = await probeCgroupLimits();
    const dirs = [ssrPath('bwrap', '.sandboxes'), ...hierarchies.map((hierarchy) => join(hierarchy.mount, CGROUP_PARENT))];
    return (await Promise.all(dirs.map((dir) => entriesOf(dir, sandbox.id)))).flat();
  },
  async leftovers() {
    const dir = ssrPath('bwrap', '.sandboxes');
    const names = await readdir(dir).catch(() => [] as string[]);
    return names.filter((name) => name.startsWith(`${process.pid}-`)).map((name) => join(dir, name));
  },
};

/**
 * Kubernetes, whenever a cluster is configured (KUBECONFIG; SSR_K8S_NAMESPACE / SSR_K8S_CONTEXT /
 * SSR_K8S_REGISTRY as for `--sandbox k8s`). The example repo's image is built locally and must be
 * in the cluster (pushed under SSR_K8S_REGISTRY, or `kind load docker-image`): docs/kubernetes.md.
 */
const k8s: ContractProvider = {
  name: 'k8s',
  ...(process.env.KUBECONFIG ? {} : { skip: 'no Kubernetes cluster: KUBECONFIG is not set (no cluster can run on this machine)' }),
  loopbackOnly: false,
  template: async () => prepareTemplate(await exampleRepo(), 'k8s', silentProgress),
  provider: () => new K8sProvider(),
  async residue(sandbox) {
    const cluster = k8sCluster();
    const found = await cluster.core.readNamespacedPod({ name: sandbox.id, namespace: cluster.namespace }).then(
      () => true,
      (error: unknown) => (k8sStatus(error) === 404 ? false : Promise.reject(error)),
    );
    return found ? [`pod ${sandbox.id}`] : [];
  },
  async leftovers() {
    const cluster = k8sCluster();
    const pods = await cluster.core.listNamespacedPod({ namespace: cluster.namespace, labelSelector: labelSelector(ownerLabels()) });
    return pods.items.map((pod) => `pod ${pod.metadata?.name} (${pod.status?.phase})`);
  },
};

/** Every backend the contract suite runs against (CI has Docker and bwrap), Docker behind a warm pool, and Kubernetes where a cluster is configured. */
export const CONTRACT_PROVIDERS: readonly ContractProvider[] = [docker, warmDocker, bwrap, k8s];
