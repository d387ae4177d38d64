import { describe, expect, it } from 'vitest';
import { engineProblems, MEMORY_PER_SLOT_BYTES, slotsOf, type EngineFacts } from '../../../../src/sandbox/engines/engine-info.js';

const facts = (overrides: Partial<EngineFacts> = {}): EngineFacts => ({
  version: '24.0', storageDriver: 'overlay2', cgroupVersion: '2', cgroupDriver: 'systemd', cpus: 8, memoryBytes: 32 * 1024 ** 3,
  memoryLimit: true, pidsLimit: true, cpuQuota: true, ...overrides,
});

describe('engineProblems', () => {
  it('finds nothing wrong with overlay2 and the cgroup controllers a sandbox needs', () => {
    expect(engineProblems(facts())).toEqual([]);
  });

  it.each([
    [{ storageDriver: 'vfs' }, /storage driver vfs copies the whole image.*--storage-driver=overlay2/],
    [{ cgroupDriver: 'none' }, /no cgroups/],
    [{ memoryLimit: false }, /cannot enforce the sandbox limits \(memory cgroup support missing\)/],
    [{ pidsLimit: false, cpuQuota: false }, /\(pids, cpu quota cgroup support missing\)/],
  ])('refuses %o, saying why', (overrides, why) => {
    expect(engineProblems(facts(overrides)).join('\n')).toMatch(why);
  });
});

describe('slotsOf', () => {
  it.each([
    [{ cpus: 8, memoryBytes: 64 * 1024 ** 3 }, 8],
    [{ cpus: 8, memoryBytes: 5 * MEMORY_PER_SLOT_BYTES }, 5],
    [{ cpus: 2, memoryBytes: 1024 ** 3 }, 1],
    [{ cpus: 4, memoryBytes: 0 }, 4],
  ])('%o takes %i episodes at once', (engine, slots) => {
    expect(slotsOf(engine)).toBe(slots);
  });
});
