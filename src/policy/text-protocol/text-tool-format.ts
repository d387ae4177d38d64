/**
 * The two plain-text tool-call formats (for servers or sampling modes without native tool calls).
 *
 * - `cwm` (Code World Model style): `<tool: NAME>` on its own line, the body, then `</tool>` on its own
 *   line. For `bash` the body is the shell command verbatim; for every other tool the body is a JSON
 *   object of the tool's arguments (so multi-line `edit` search/replace text is carried exactly, with
 *   `\n` escapes inside JSON strings).
 * - `hermes` (Qwen / Hermes style): `<tool_call>{"name": NAME, "arguments": {...}}</tool_call>`.
 *
 * The parser accepts both formats in any reply; `format` only chooses what is rendered (instructions,
 * re-rendered history, hints in error messages).
 */
export type TextToolFormat = 'cwm' | 'hermes';

export const DEFAULT_TEXT_TOOL_FORMAT: TextToolFormat = 'cwm';

/**
 * Tools whose `cwm` body is one raw string argument rather than a JSON object: tool name → argument.
 * A raw body may still be a JSON object holding that argument (e.g. `{"command": "...", "timeout": 5}`),
 * which is how a call with extra arguments, or a command containing a `</tool>` line, is written.
 */
export const RAW_BODY_ARGUMENT: Readonly<Record<string, string>> = { bash: 'command' };

export const CWM_CLOSE = '</tool>';
export const HERMES_OPEN = '<tool_call>';
export const HERMES_CLOSE = '</tool_call>';
/** `<tool: NAME>`; the name may be missing or odd, which the parser reports. */
export const CWM_OPEN_PATTERN = /<tool:[ \t]*([^>\n]*?)[ \t]*>/y;
