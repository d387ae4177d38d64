import type { SandboxBackend } from '../../sandbox/sandbox.js';
import type { GoldenGate } from './judge-golden-gate.js';

/** The `ssr selfplay` flag that accepts rewards graded where the tests run as the sandbox's only user. */
export const ALLOW_ONE_USER_FLAG = '--allow-one-user-grading';

/** Backends whose tests always run as the sandbox's only user (no second uid inside bubblewrap). */
const ONE_USER_BACKENDS: readonly SandboxBackend[] = ['bwrap'];

export interface OneUserInput {
  /** `selfplay` or `corpus` (run.json's command). */
  command: string;
  backend: SandboxBackend;
  /** `--allow-one-user-grading` was given. */
  allowed: boolean;
  /** The golden gates of the run's repos, once run (absent: the check before anything is built). */
  gates?: readonly GoldenGate[];
}

/**
 * Why a run must not start on a one-user backend, or null. There, code under test can forge a +1
 * (read a runner's nonce, sign guard records: docs/grading.md, "One user only"), and RL learns
 * what is rewarded: `ssr selfplay` refuses unless {@link ALLOW_ONE_USER_FLAG} is given. `ssr corpus`
 * trains nothing, and a bug's validity rests on runs of the Injector's own patch, so it runs with
 * the golden gate's WARNING. Bubblewrap is refused before anything is built; any other backend
 * (a non-root pod) when a gate found its tests ran as the only user.
 */
export function oneUserRefusal(input: OneUserInput): string | null {
  if (input.allowed || input.command !== 'selfplay') return null;
  const found = input.gates?.filter((gate) => gate.status === 'passed' && gate.oneUser === true).map((gate) => gate.repo) ?? [];
  const always = ONE_USER_BACKENDS.includes(input.backend);
  if (!always && found.length === 0) return null;
  const where = always ? `on the ${input.backend} backend the tests always run` : `on the ${input.backend} backend the golden gate of ${found.join(', ')} found the tests ran`;
  return (
    `ssr selfplay: ${where} as the sandbox's only user, so code under test can forge a +1 that training would reward (docs/grading.md, "One user only"): ` +
    `run on Docker (--sandbox docker) or a pod that runs as root, or pass ${ALLOW_ONE_USER_FLAG} to train on such rewards anyway (run.json records it and ssr report marks the run)`
  );
}
