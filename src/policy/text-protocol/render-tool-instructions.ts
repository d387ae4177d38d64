import type { ToolSpec } from '../policy.js';
import { describeSchemaType, placeholderValue } from './describe-json-schema.js';
import { renderToolCallAsText } from './render-tool-call-text.js';
import { DEFAULT_TEXT_TOOL_FORMAT, RAW_BODY_ARGUMENT, type TextToolFormat } from './text-tool-format.js';

/**
 * The system-prompt section that teaches a text-mode model the tool-call protocol and every tool.
 * Generated from the ToolSpecs the tools themselves validate with, so the docs cannot drift.
 */
export function renderToolProtocolInstructions(tools: ToolSpec[], format: TextToolFormat = DEFAULT_TEXT_TOOL_FORMAT): string {
  return [protocolSection(tools, format), ...tools.map((tool) => toolSection(tool, format))].join('\n\n');
}

function protocolSection(tools: ToolSpec[], format: TextToolFormat): string {
  const lines = ['# Tools', '', 'Make exactly one tool call in every reply, after your reasoning. The call must be the last thing in the reply.'];
  if (format === 'hermes') {
    lines.push(
      'Write the call as a JSON object with the tool name and its arguments between tags:',
      '',
      '<tool_call>',
      '{"name": "TOOL_NAME", "arguments": {"ARGUMENT": "VALUE"}}',
      '</tool_call>',
      '',
      'The arguments are JSON: write newlines inside strings as \\n and escape quotes as \\".',
    );
  } else {
    const raw = tools.filter((tool) => RAW_BODY_ARGUMENT[tool.name] !== undefined).map((tool) => tool.name);
    lines.push('Write the call as an opening line with the tool name, the body, and a closing line:', '', '<tool: TOOL_NAME>', 'BODY', '</tool>', '');
    if (raw.length > 0) {
      lines.push(`For ${raw.join(', ')} the BODY is the shell command itself, exactly as it should run (it may span several lines).`);
      const withMore = tools.filter((tool) => raw.includes(tool.name) && Object.keys((tool.parameters.properties ?? {}) as object).length > 1);
      if (withMore.length > 0) lines.push(`To give ${withMore.map((tool) => tool.name).join(', ')} its other arguments, write the BODY as a JSON object of arguments instead.`);
    }
    lines.push(
      `For ${raw.length > 0 ? 'every other tool' : 'every tool'} the BODY is one JSON object of arguments: write newlines inside strings as \\n and escape quotes as \\".`,
    );
  }
  return lines.join('\n');
}

function toolSection(tool: ToolSpec, format: TextToolFormat): string {
  const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : []);
  const lines = [`## ${tool.name}`, '', tool.description.trim()];
  const names = Object.keys(properties);
  if (names.length > 0) {
    lines.push('', 'Arguments:');
    for (const name of names) {
      const property = properties[name]!;
      const description = typeof property.description === 'string' ? `: ${property.description}` : '';
      lines.push(`- ${name} (${describeSchemaType(property)}, ${required.has(name) ? 'required' : 'optional'})${description}`);
    }
  }
  const example = Object.fromEntries(names.filter((name) => required.has(name)).map((name) => [name, placeholderValue(name, properties[name])]));
  lines.push('', 'Call:', renderToolCallAsText({ name: tool.name, arguments: example }, format));
  return lines.join('\n');
}
