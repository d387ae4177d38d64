import type { AdvantageEstimator } from './advantages.js';
import { computeAdvantages } from './advantages.js';
import type { TrainingSample } from './training-sample.js';

/** What grouping needs of a sample; its advantage is (re)computed. */
export type GroupMember = Pick<TrainingSample, 'role' | 'groupId' | 'reward' | 'masked'>;

/** One group's summary, for metrics and for the trainer to skip groups with no signal. */
export interface GroupStats {
  role: TrainingSample['role'];
  groupId: string;
  /** Members, masked included. */
  size: number;
  /** Members whose reward entered the statistics. */
  unmasked: number;
  /** Mean reward of the unmasked members; null when there are none. */
  meanReward: number | null;
  /** Every member's advantage is 0 (equal rewards, fewer than two unmasked): no gradient. */
  zeroAdvantage: boolean;
}

/**
 * Group samples by (role, groupId) and set each one's group-relative advantage, computed over the
 * **unmasked** members only. A masked sample gets advantage 0 and stays out of the mean and std:
 * its trajectory hit a limit or the infrastructure, so its reward says nothing about the policy,
 * and counting it would shift every other member's baseline. Samples keep their input order.
 */
export function assignAdvantages<T extends GroupMember>(
  samples: readonly T[],
  estimator: AdvantageEstimator,
): { samples: Array<T & { advantage: number }>; groups: GroupStats[] } {
  const byGroup = new Map<string, number[]>();
  samples.forEach((sample, index) => {
    const key = `${sample.role}\0${sample.groupId}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), index]);
  });
  const advantages = new Array<number>(samples.length).fill(0);
  const groups: GroupStats[] = [];
  for (const members of byGroup.values()) {
    const first = samples[members[0]!]!;
    const scored = members.filter((index) => !samples[index]!.masked);
    const rewards = scored.map((index) => samples[index]!.reward);
    const values = computeAdvantages(rewards, estimator);
    scored.forEach((index, i) => (advantages[index] = values[i]!));
    groups.push({
      role: first.role,
      groupId: first.groupId,
      size: members.length,
      unmasked: scored.length,
      meanReward: rewards.length === 0 ? null : rewards.reduce((sum, r) => sum + r, 0) / rewards.length,
      zeroAdvantage: values.every((value) => value === 0),
    });
  }
  return { samples: samples.map((sample, index) => ({ ...sample, advantage: advantages[index]! })), groups };
}
