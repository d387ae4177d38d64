import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSpec } from '../../../../src/policy/policy.js';
import { parseTextToolCall } from '../../../../src/policy/text-protocol/parse-text-tool-call.js';
import { renderToolProtocolInstructions } from '../../../../src/policy/text-protocol/render-tool-instructions.js';
import { toTextProtocolMessages } from '../../../../src/policy/text-protocol/to-text-protocol-messages.js';

/** Specs built the way the tools build theirs: zod → JSON schema. */
function spec(name: string, description: string, schema: z.ZodType): ToolSpec {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { name, description, parameters };
}

const tools: ToolSpec[] = [
  spec('bash', 'Run a shell command.', z.object({ command: z.string().describe('The command.'), timeout: z.number().int().min(1).optional() })),
  spec('edit', 'Replace one block of lines.', z.object({ path: z.string().describe('File path.'), search: z.string(), replace: z.string() })),
  spec('submit', 'Submit the work.', z.object({ kind: z.enum(['diff', 'artifact']), paths: z.array(z.string()) })),
];

describe('renderToolProtocolInstructions', () => {
  it.each(['cwm', 'hermes'] as const)('documents every tool and argument from its schema (%s)', (format) => {
    const text = renderToolProtocolInstructions(tools, format);
    for (const line of [
      '## bash',
      'Run a shell command.',
      '- command (string, required): The command.',
      '- timeout (integer ≥ 1, optional)',
      '## edit',
      '- path (string, required): File path.',
      '- kind (one of "diff", "artifact", required)',
      '- paths (array of string, required)',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toContain('exactly one tool call');
  });

  it.each(['cwm', 'hermes'] as const)('gives examples that parse as calls of the right tool (%s)', (format) => {
    const text = renderToolProtocolInstructions(tools, format);
    const examples = text.split('Call:\n').slice(1).map((chunk) => chunk.split('\n\n')[0]!);
    expect(examples).toHaveLength(tools.length);
    examples.forEach((example, i) => {
      const parsed = parseTextToolCall(example);
      expect(parsed.status === 'ok' && parsed.call.name).toBe(tools[i]!.name);
    });
  });

  it('tells cwm models that bash takes a raw command and the rest JSON', () => {
    const text = renderToolProtocolInstructions(tools, 'cwm');
    expect(text).toContain('For bash the BODY is the shell command itself');
    expect(text).toContain('For every other tool the BODY is one JSON object');
    expect(text).toContain('<tool: bash>\n<command>\n</tool>');
  });
});

describe('toTextProtocolMessages', () => {
  const conversation: ChatMessage[] = [
    { role: 'system', content: 'You are a solver.' },
    { role: 'user', content: 'Fix the bug.' },
    { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'c0', name: 'bash', arguments: { command: 'ls' } }] },
    { role: 'tool', content: 'a.py', toolCallId: 'c0', name: 'bash' },
  ];

  it('teaches the protocol in the system prompt and re-renders history as text', () => {
    const out = toTextProtocolMessages(conversation, tools, 'cwm');
    expect(out).toHaveLength(4);
    expect(out[0]!.role).toBe('system');
    expect(out[0]!.content.startsWith('You are a solver.\n\n# Tools')).toBe(true);
    expect(out[2]).toEqual({ role: 'assistant', content: 'Looking.\n\n<tool: bash>\nls\n</tool>' });
    expect(out[3]).toEqual({ role: 'user', content: 'Result of bash:\na.py' });
  });

  it('adds a system message when there is none', () => {
    const out = toTextProtocolMessages(conversation.slice(1), tools, 'hermes');
    expect(out[0]!.role).toBe('system');
    expect(out[0]!.content).toContain('<tool_call>');
    expect(out).toHaveLength(4);
  });
});
