import type { EngineAddress } from '../../sandbox/engines/engine-address.js';
import { slotsOf } from '../../sandbox/engines/engine-info.js';
import { probeEngine } from '../../sandbox/engines/probe-engine.js';
import { imageId } from '../../sandbox/engines/share-image.js';
import { errorMessage, isEngineError } from '../../util/engine-error.js';
import type { DoctorCheck } from './doctor.js';

const GIB = 1024 ** 3;

/**
 * One line per engine of `--docker-host` / SSR_DOCKER_HOSTS: up (version, storage driver, cgroup
 * version, slots, which of `tags` it has, by image id) or down / refused with the fix.
 */
export async function engineChecks(addresses: readonly EngineAddress[], tags: readonly string[], slotsPerHost?: number): Promise<DoctorCheck[]> {
  return Promise.all(
    addresses.map(async (address): Promise<DoctorCheck> => {
      const name = `engine ${address.name}`;
      try {
        const { docker, facts } = await probeEngine(address);
        const slots = slotsPerHost ?? slotsOf(facts);
        const images = await Promise.all(tags.map(async (tag) => `${tag} ${(await imageId(docker, tag))?.slice(7, 19) ?? 'missing'}`));
        return {
          name, status: 'ok',
          detail:
            `up, Docker ${facts.version}, storage driver ${facts.storageDriver}, cgroup v${facts.cgroupVersion}, ` +
            `${slots} slot(s) (${facts.cpus} CPUs, ${(facts.memoryBytes / GIB).toFixed(1)} GiB)` +
            (images.length > 0 ? `; images: ${images.join(', ')}` : ''),
        };
      } catch (error) {
        const refused = isEngineError(error) && error.code === 'sandbox-unavailable';
        return { name, status: 'failed', detail: `${refused ? 'refused' : 'down'}: ${errorMessage(error)}`, fix: refused ? 'see the reason above' : 'start that engine or fix its --docker-host URL' };
      }
    }),
  );
}
