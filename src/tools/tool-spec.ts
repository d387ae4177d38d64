/**
 * The two contracts the tools and the policies share, kept in the lower layer (tools) so a tool
 * never imports a policy; policy/policy.ts re-exports them for its callers.
 */

/** Which side of self-play an agent plays (method §8): tools and prompts differ by role. */
export type AgentRole = 'injector' | 'solver';

/** A tool as offered to the model: name, model-facing description, JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
