import type { ToolCall } from '../policy.js';
import { CWM_CLOSE, DEFAULT_TEXT_TOOL_FORMAT, HERMES_CLOSE, HERMES_OPEN, RAW_BODY_ARGUMENT, type TextToolFormat } from './text-tool-format.js';

/**
 * Writes a tool call the way the model is told to write it, so history shown to a text-mode server
 * looks like the model's own output. `parseTextToolCall(renderToolCallAsText(call))` returns `call`
 * (bar the id) for every JSON-serialisable arguments object.
 */
export function renderToolCallAsText(call: Pick<ToolCall, 'name' | 'arguments'>, format: TextToolFormat = DEFAULT_TEXT_TOOL_FORMAT): string {
  if (format === 'hermes') return `${HERMES_OPEN}\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n${HERMES_CLOSE}`;
  return `<tool: ${call.name}>\n${cwmBody(call)}\n${CWM_CLOSE}`;
}

function cwmBody({ name, arguments: args }: Pick<ToolCall, 'name' | 'arguments'>): string {
  const rawArgument = RAW_BODY_ARGUMENT[name];
  if (rawArgument !== undefined && typeof args === 'object' && args !== null) {
    const entries = Object.entries(args);
    const raw = (args as Record<string, unknown>)[rawArgument];
    // The raw form only fits a lone string that cannot be mistaken for the close tag or a JSON body.
    const rawFits =
      entries.length === 1 &&
      typeof raw === 'string' &&
      !/(^|\n)[ \t]*<\/tool>/.test(raw) &&
      !/^\s*\{[\s\S]*\}\s*$/.test(raw) &&
      raw.trim() !== '' &&
      !/^[ \t]*\r?\n|\r?\n[ \t]*$/.test(raw) &&
      !raw.startsWith('```');
    if (rawFits) return raw;
  }
  return JSON.stringify(args ?? {});
}
