/**
 * Group ids of RL samples (method §9). A group holds the rollouts that share one prompt, so their
 * rewards are comparable and the group mean is a baseline.
 */

/** A Solver group: the attempts on one bug. Order is part of it: an order-2 bug has its own attempts. */
export function solverGroupId(bugId: string, order: 1 | 2): string {
  return `solver:${bugId}:order-${order}`;
}

/** An Injector group: the rollouts of one prompt, i.e. one repo at one commit with one strategy. */
export function injectorGroupId(repo: string, commit: string, strategy: string): string {
  return `injector:${repo}@${commit}:${strategy}`;
}
