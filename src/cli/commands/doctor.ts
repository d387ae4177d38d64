import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { imageRecipeSchema } from '../../config/repos-schema.js';
import { resolveRepo } from '../../config/resolve-repo.js';
import { baseImageTag } from '../../sandbox/docker/base-image.js';
import { dockerClient, imageExists } from '../../sandbox/docker/docker-client.js';
import { describeCgroupSupport, probeCgroupLimits, type CgroupSupport } from '../../sandbox/bwrap/cgroup-probe.js';
import { engineInfo, pythonVersionsIn } from '../../sandbox/docker/docker-health.js';
import { staleRepoImageTags } from '../../sandbox/docker/prune-repo-images.js';
import { currentRepoImageTag } from '../../sandbox/docker/repo-image.js';
import { baseRootfsDir, baseRootfsHash } from '../../sandbox/images/base-rootfs.js';
import { runProcess } from '../../sandbox/images/run-process.js';
import { BWRAP_HINT, DOCKER_HINT, probeBwrapBackend, probeDockerBackend } from '../../sandbox/select-backend.js';
import { TOOL_PROTOCOL_CHOICES } from '../../policy/preflight/server-facts.js';
import { errorMessage } from '../../util/engine-error.js';
import { loadReposOption, positiveInt } from '../common-options.js';
import { serverChecks, type DoctorServerFlags } from './doctor-server.js';
import { engineChecks } from './doctor-engines.js';
import { engineAddresses, type EngineAddress } from '../../sandbox/engines/engine-address.js';
import { DOCKER_HOST_HELP } from '../docker-host-options.js';

/** One line of the doctor's report; `fix` says what to do about anything not ok. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'missing' | 'failed';
  detail: string;
  fix?: string;
}

const BUILD_FIX = 'ssr build-image --repo <id|path> (the first build runs debootstrap, about a minute)';

async function debootstrapCheck(): Promise<DoctorCheck> {
  const missing: DoctorCheck = { name: 'debootstrap', status: 'missing', detail: 'not installed (needed once, to build the base rootfs)', fix: 'apt-get install debootstrap, or scripts/setup-host' };
  const result = await runProcess('debootstrap', ['--version']).catch(() => undefined);
  return result?.exitCode === 0 ? { name: 'debootstrap', status: 'ok', detail: result.tail.trim() } : missing;
}

const LIMITS_FIX = 'run ssr as root with cgroups mounted read-write under /sys/fs/cgroup; until then bwrap commands have only rlimits (per-process memory, no process count as uid 0, no cpu cap)';

/** Whether bwrap sandboxes get their pids, memory and cpu limits from cgroups here. */
export function bwrapLimitsCheck(support: CgroupSupport): DoctorCheck {
  const detail = describeCgroupSupport(support);
  return support.unenforced.length === 0 ? { name: 'bwrap limits', status: 'ok', detail } : { name: 'bwrap limits', status: 'missing', detail, fix: LIMITS_FIX };
}

function staleNote(stale: string[], id: string): string {
  return stale.length === 0 ? '' : ` (+${stale.length} stale image tag(s) of older commits or recipes: ssr build-image --repo ${id} --prune)`;
}

async function dockerChecks(repoIds: string[], resolveTag: (id: string) => Promise<string>): Promise<DoctorCheck[]> {
  const probe = await probeDockerBackend();
  if (probe.status !== 'ok') return [{ name: 'docker engine', status: 'failed', detail: probe.reason, fix: DOCKER_HINT }];
  const docker = dockerClient();
  const info = await engineInfo(docker);
  const checks: DoctorCheck[] = [
    { name: 'docker engine', status: 'ok', detail: `Docker ${info.version}, storage driver ${info.storageDriver}, cgroup v${info.cgroupVersion}` },
  ];
  const base = baseImageTag(imageRecipeSchema.parse({}));
  if (await imageExists(docker, base)) {
    checks.push({ name: 'base image', status: 'ok', detail: base });
    const python = await pythonVersionsIn(base).then(
      (v): DoctorCheck => ({ name: 'python in base image', status: 'ok', detail: `Python ${v.python}, pytest ${v.pytest}, coverage ${v.coverage}` }),
      (error: unknown): DoctorCheck => ({ name: 'python in base image', status: 'failed', detail: errorMessage(error), fix: `docker rmi ${base}, then ${BUILD_FIX}` }),
    );
    checks.push(python);
  } else {
    checks.push({ name: 'base image', status: 'missing', detail: `${base} not built`, fix: BUILD_FIX });
  }
  for (const id of repoIds) {
    const check = await resolveTag(id).then(
      async (tag): Promise<DoctorCheck> =>
        (await imageExists(docker, tag))
          ? { name: `repo image ${id}`, status: 'ok', detail: `${tag}${staleNote(await staleRepoImageTags(docker, id, tag), id)}` }
          : { name: `repo image ${id}`, status: 'missing', detail: `${tag} not built`, fix: `ssr build-image --repo ${id}` },
      (error: unknown): DoctorCheck => ({ name: `repo image ${id}`, status: 'failed', detail: errorMessage(error), fix: 'fix its entry in repos.yaml' }),
    );
    checks.push(check);
  }
  return checks;
}

/** The base image and every repo image of the repo set whose tag can be told. */
async function imageTags(repoIds: string[], resolveTag: (id: string) => Promise<string>): Promise<string[]> {
  const tags = [baseImageTag(imageRecipeSchema.parse({}))];
  for (const id of repoIds) tags.push(...(await resolveTag(id).then((tag) => [tag], () => [])));
  return tags;
}

/** Everything the doctor looks at, in report order; `engines`: those of --docker-host, each listed. */
export async function runDoctor(reposFile: string | undefined, engines: readonly EngineAddress[] = []): Promise<{ checks: DoctorCheck[]; usable: string[] }> {
  const repos = await loadReposOption(reposFile);
  const repoIds = repos?.file.repos.map((repo) => repo.id) ?? [];
  const bwrap = await probeBwrapBackend();
  const rootfs = baseRootfsDir(imageRecipeSchema.parse({}));
  const resolveTag = async (id: string): Promise<string> => currentRepoImageTag(dockerClient(), await resolveRepo(id, repos));
  const checks: DoctorCheck[] = [
    ...(engines.length > 0 ? await engineChecks(engines, await imageTags(repoIds, resolveTag)) : await dockerChecks(repoIds, resolveTag)),
    bwrap.status === 'ok'
      ? { name: 'bubblewrap', status: 'ok', detail: bwrap.detail }
      : { name: 'bubblewrap', status: 'failed', detail: bwrap.reason, fix: BWRAP_HINT },
    ...(bwrap.status === 'ok' ? [bwrapLimitsCheck(await probeCgroupLimits())] : []),
    await debootstrapCheck(),
    existsSync(rootfs)
      ? { name: 'base rootfs', status: 'ok', detail: `${baseRootfsHash(imageRecipeSchema.parse({}))} at ${rootfs}` }
      : { name: 'base rootfs', status: 'missing', detail: `${rootfs} not built`, fix: BUILD_FIX },
  ];
  if (!repos) checks.push({ name: 'repos.yaml', status: 'missing', detail: 'none given and none in the current directory', fix: 'pass --repos <file>, or use --repo <path>' });
  const dockerOk = checks.some((check) => (check.name === 'docker engine' || check.name.startsWith('engine ')) && check.status === 'ok');
  const usable = [...(dockerOk ? ['docker'] : []), ...(bwrap.status === 'ok' ? ['bwrap'] : [])];
  return { checks, usable };
}

function render(checks: DoctorCheck[], usable: string[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = checks.flatMap((check) => [
    `${check.status.toUpperCase().padEnd(7)} ${check.name.padEnd(width)}  ${check.detail}`,
    ...(check.fix ? [`${' '.repeat(8 + width)}  fix: ${check.fix}`] : []),
  ]);
  lines.push(usable.length > 0 ? `usable sandbox backends: ${usable.join(', ')}` : 'no usable sandbox backend: see the fixes above');
  return `${lines.join('\n')}\n`;
}

/** `ssr doctor`: what this machine has and lacks for running sandboxes, and how to fix it. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the Docker engine, bubblewrap (and its cgroup limits), debootstrap, the built images and (--base-url) a model server; say how to fix what is missing')
    .option('--repos <file>', 'repo set whose images to check (default: ./repos.yaml when present)')
    .option('--base-url <url>', 'also check this model server: served model, context length, native tool calls (the preflight of every run)')
    .option('--model <name>', 'with --base-url: the model to check (default: the first listed)')
    .option('--api-key <key>', 'with --base-url: bearer token (default: $OPENAI_API_KEY)')
    .addOption(new Option('--policy <kind>', 'with --base-url: check it for openai (chat) or tokens (RL) use').choices(['openai', 'tokens']).default('openai'))
    .addOption(new Option('--tool-protocol <mode>', 'with --base-url: native, text or auto (default)').choices(TOOL_PROTOCOL_CHOICES))
    .option('--max-context <n>', "with --base-url: the model's context when the server does not report it", positiveInt('--max-context'))
    .option('--json', 'print the checks as JSON')
    .option('--docker-host <url>', `${DOCKER_HOST_HELP}; each is listed with its state, slots and images`, (value: string, previous: string[] = []) => [...previous, value])
    .action(async (options: DoctorServerFlags & { repos?: string; json?: boolean; dockerHost?: string[] }) => {
      const { checks, usable } = await runDoctor(options.repos, engineAddresses(options.dockerHost));
      const server = options.baseUrl === undefined ? [] : await serverChecks(options);
      checks.push(...server);
      process.stdout.write(options.json ? `${JSON.stringify({ checks, usable }, null, 2)}\n` : render(checks, usable));
      // 2 = EXIT_USAGE_OR_INFRA of main.ts (not imported: main imports every command).
      process.exitCode = usable.length > 0 && server.every((check) => check.status === 'ok') ? 0 : 2;
    });
}
