import type { ChatMessage, PolicyTurn, ToolCall } from '../policy/policy.js';
import type { Tool, ToolContext, ToolResult } from '../tools/tool.js';

/** What one assistant turn did: the observation messages to append, and the tool call it ran if any. */
export interface DispatchedTurn {
  /** Observations in conversation order (tool messages, or one user message when no call was made). */
  messages: ChatMessage[];
  /** Why the turn was not exactly one valid tool call; such turns count toward the format-error streak. */
  formatError?: string;
  call?: ToolCall;
  result?: ToolResult;
}

const ONE_CALL = 'Call exactly one tool per turn';

/**
 * Validate and run the turn's single tool call. The model's mistakes become observations; only
 * the tool's own exceptions (infrastructure) escape.
 */
export async function dispatchTurn(turn: PolicyTurn, tools: readonly Tool[], ctx: ToolContext): Promise<DispatchedTurn> {
  const calls = turn.toolCalls;
  if (calls.length === 0) {
    const why = turn.formatError ?? 'No tool call found.';
    const names = tools.map((t) => t.name).join(', ');
    return { messages: [{ role: 'user', content: `${why} ${ONE_CALL} (${names}); when the task is done, call submit.` }], formatError: why };
  }
  if (calls.length > 1) {
    const content = `Not run: this turn made ${calls.length} tool calls. ${ONE_CALL}; none of them was run.`;
    return { messages: calls.map((c) => toolMessage(c, content)), formatError: `${calls.length} tool calls in one turn` };
  }
  const call = calls[0]!;
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    const why = `Unknown tool \`${call.name}\`. Available tools: ${tools.map((t) => t.name).join(', ')}.`;
    return { messages: [toolMessage(call, why)], formatError: why, call };
  }
  const parsed = tool.schema.safeParse(decodeArguments(call.arguments));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `- ${i.path.length > 0 ? i.path.join('.') : '(arguments)'}: ${i.message}`);
    const why = `Invalid arguments for \`${tool.name}\`:\n${issues.join('\n')}`;
    return { messages: [toolMessage(call, why)], formatError: why, call };
  }
  const result = await tool.run(parsed.data, ctx);
  return { messages: [toolMessage(call, result.output)], call, result };
}

/** Arguments a policy left as a JSON string are decoded here; anything else is judged by the schema. */
function decodeArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function toolMessage(call: ToolCall, content: string): ChatMessage {
  return { role: 'tool', content, toolCallId: call.id, name: call.name };
}
