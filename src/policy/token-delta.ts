/**
 * The tokens a new prompt adds after the conversation so far: `full` is the whole conversation with
 * the generation prompt, `before` the conversation up to and including the last assistant message.
 * Normally `before` is a prefix of `full`; when a chat template renders a message differently once
 * it is no longer last, the delta is taken after the longest common prefix and `mismatch` is set
 * (the trainer counts these as retokenisation warnings).
 */
export function tokenDelta(before: number[], full: number[]): { delta: number[]; mismatch: boolean } {
  let common = 0;
  const limit = Math.min(before.length, full.length);
  while (common < limit && before[common] === full[common]) common++;
  return { delta: full.slice(common), mismatch: common !== before.length };
}
