import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { expect, it } from 'vitest';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import { AheadProvider, type Reservation } from '../../../src/sandbox/pool/ahead-provider.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { Sandbox, SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../../src/validator/baseline-cache.js';
import { validateArtifact } from '../../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo } from '../../helpers/sandboxes.js';

const ARTIFACT = fileURLToPath(new URL('../../fixtures/artifacts/valid-single-file', import.meta.url));

/**
 * The state a sandbox ran, from the test driver's arguments (`set -- <5 limits> reparse steps guard
 * fifo`, then the driver): O runs with the second parse, O's repeat without; B applies one diff, W two; the
 * order run is the only unguarded one.
 */
function stateOf(command: string): string | undefined {
  const args = /^set --((?: \d+)+)$/m.exec(command)?.[1]?.trim().split(' ');
  if (!args) return undefined;
  const [reparse, steps, guard] = args.slice(5, 8);
  if (guard === '0') return 'order';
  if (steps === '0') return reparse === '1' ? 'O' : 'O-repeat';
  return steps === '1' ? 'B' : 'W';
}

/**
 * Real Docker, real pytest: which run got each queue slot (the order the runs drew their
 * sandboxes, each drawn the moment its run gets a slot), and how many sandboxes were announced
 * to the engine by the time the first test run ended.
 */
class Recording extends AheadProvider {
  readonly slots: Sandbox[] = [];
  readonly states = new Map<Sandbox, string>();
  startedAtFirstEnd: number | undefined;

  override reserve(template: SandboxTemplate): Reservation {
    const reservation = super.reserve(template);
    return {
      acquire: () => {
        const drawn = reservation.acquire();
        const slot = this.slots.length;
        this.slots.push(undefined as unknown as Sandbox);
        return drawn.then((sandbox) => (this.slots[slot] = this.watch(sandbox)));
      },
      release: () => reservation.release(),
    };
  }

  private watch(sandbox: Sandbox): Sandbox {
    const exec = sandbox.exec.bind(sandbox);
    sandbox.exec = async (command, options) => {
      const state = stateOf(command);
      if (state) this.states.set(sandbox, state);
      const result = await exec(command, options);
      if (state) this.startedAtFirstEnd ??= this.counts.started;
      return result;
    };
    return sandbox;
  }
}

it('validation runs O and B first, gives the order run the slot they free, and starts each run\'s sandbox while the runs before it hold the slots (real Docker)', async () => {
  const repo = await exampleRepo();
  const template = await dockerTemplate(repo);
  const artifact = await loadArtifactDir(ARTIFACT);
  const provider = new Recording(createProvider('docker'), 2);
  try {
    // `never`: no selection plan to wait for, so every run is queued at once on two slots.
    const result = await validateArtifact(artifact, { repo, template, provider, queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache(), selectTests: 'never' });
    expect(result.valid).toBe(true);
    const order = provider.slots.map((sandbox) => provider.states.get(sandbox));
    // O and B first (the order run needs both); O's repeat takes the first slot they free, the
    // order run (the longest, and last) the second, ahead of W, which nobody waits for yet.
    expect(new Set(order.slice(0, 2))).toEqual(new Set(['O', 'B']));
    expect(order.slice(2)).toEqual(['O-repeat', 'order', 'W']);
    // The one-file bug's inverse state is O: five runs, five sandboxes, each started ahead, none unused.
    expect(provider.counts).toEqual({ started: 5, served: 5, unused: 0 });
    // While O and B ran, the sandboxes of the two runs after them were started (depth 2), not more.
    expect(provider.startedAtFirstEnd).toBe(4);
  } finally {
    await provider.dispose();
  }
}, 300_000);
