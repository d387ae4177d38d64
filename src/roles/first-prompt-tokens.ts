import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentLimitsSchema } from '../agent/agent-limits.js';
import { thresholdsSchema } from '../config/repos-schema.js';
import { toolsForRole } from '../tools/registry.js';
import { toToolSpec } from '../tools/tool.js';
import { injectorStrategySchema } from './injector-strategy.js';
import { promptsDir } from './render-prompt.js';
import { injectorPrompts } from './role-prompts.js';

/**
 * A low estimate of the smallest first prompt an episode sends (system prompt, the shortest
 * role task, the tools' schemas), at 4 characters a token: a model whose context is below it
 * cannot play a turn, so the preflight refuses it up front. Low on purpose: it must never refuse a
 * context that would have worked.
 */
export function firstPromptTokens(): number {
  const limits = agentLimitsSchema.parse({});
  const settings = { thresholds: thresholdsSchema.parse({}), testTimeoutMs: 60_000 };
  const tools = JSON.stringify(toolsForRole('injector').map(toToolSpec));
  const sizes = injectorStrategySchema.options.map((strategy) => {
    const prompts = injectorPrompts(strategy, settings, limits);
    return prompts.systemPrompt.length + prompts.userPrompt.length + tools.length;
  });
  // The Solver's task holds a diff on top of its template: the bare template bounds it from below.
  const system = injectorPrompts('direct', settings, limits).systemPrompt;
  sizes.push(system.length + readFileSync(join(promptsDir(), 'solver.md'), 'utf8').length + tools.length);
  return Math.floor(Math.min(...sizes) / 4);
}
