import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BwrapProvider } from '../../../src/sandbox/bwrap/bwrap-provider.js';
import { probeCgroupLimits } from '../../../src/sandbox/bwrap/cgroup-probe.js';
import { CGROUP_PARENT } from '../../../src/sandbox/bwrap/cgroup-values.js';
import { dockerClient } from '../../../src/sandbox/docker/docker-client.js';
import { DockerProvider } from '../../../src/sandbox/docker/docker-provider.js';
import { OWNER_LABEL, ownerLabelValue } from '../../../src/sandbox/docker/orphan-sweep.js';
import { PooledProvider } from '../../../src/sandbox/pool/pooled-provider.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { ssrPath } from '../../../src/util/ssr-home.js';
import { bwrapTemplate, dockerTemplate, exampleRepo } from '../../helpers/sandboxes.js';

/**
 * One backend under the Sandbox contract: a row of the contract suite. A new provider (many
 * Docker engines, Kubernetes) joins the suite by adding a row here.
 */
export interface ContractProvider {
  /** Name in the test titles. */
  readonly name: string;
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

/** Every backend the contract suite runs against (CI has Docker and bwrap), and Docker behind a warm pool. */
export const CONTRACT_PROVIDERS: readonly ContractProvider[] = [docker, warmDocker, bwrap];
