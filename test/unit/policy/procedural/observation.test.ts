import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/policy/policy.js';
import { lastObservation, parseObservation } from '../../../../src/policy/procedural/observation.js';

const tool = (name: string, content: string): ChatMessage => ({ role: 'tool', name, toolCallId: 'c1', content });
const FOOTER = '\n\n[97 turns and ~120345 tokens left]';

describe('parseObservation', () => {
  it.each([
    ['bash success', tool('bash', `hello\nworld${FOOTER}`), { text: 'hello\nworld', ok: true, exitCode: 0, timedOut: false }],
    ['bash failure', tool('bash', `oops\n[exit code 2]${FOOTER}`), { text: 'oops', ok: false, exitCode: 2, timedOut: false }],
    ['bash killed', tool('bash', `x\n[exit code none: killed by a signal]${FOOTER}`), { text: 'x', ok: false, exitCode: null }],
    ['bash no output', tool('bash', `(no output)${FOOTER}`), { text: '', ok: true, exitCode: 0 }],
    ['bash no output, failing', tool('bash', `(no output)\n[exit code 1]${FOOTER}`), { text: '', ok: false, exitCode: 1 }],
    [
      'bash timeout',
      tool('bash', `partial\n[timed out after 120 s: the command was killed and its cd/export changes were lost. Run long jobs in the background with output to a file, or narrow them.]${FOOTER}`),
      { text: 'partial', ok: false, timedOut: true, exitCode: null },
    ],
    ['bash refused', tool('bash', `Refused to run \`vim\`: it is an interactive editor.${FOOTER}`), { ok: false, exitCode: null }],
    ['edit success', tool('edit', `Edited /repo/a.py: replaced 1 line(s) with 1 at line 3.\n3\tx = 1${FOOTER}`), { ok: true }],
    ['edit no match', tool('edit', `No match for \`search\` in /repo/a.py: ...${FOOTER}`), { ok: false }],
    ['create success', tool('create', `Created /tmp/x (2 line(s)).${FOOTER}`), { ok: true }],
    ['submit recorded', tool('submit', `Submission recorded.\nYou may call \`submit\` again${FOOTER}`), { ok: true }],
    ['submit refused', tool('submit', `Nothing submitted; fix these paths${FOOTER}`), { ok: false }],
    ['format error', { role: 'user', content: `No tool call found. Call exactly one tool per turn${FOOTER}` } as ChatMessage, { tool: null, ok: false }],
  ])('%s', (_name, message, expected) => {
    const observation = parseObservation(message);
    expect(observation).toMatchObject({ ...expected, turnsLeft: 97, tokensLeft: 120345 });
    expect(observation.raw).toBe(message.content);
  });

  it('keeps text that only looks like a footer in the middle', () => {
    const observation = parseObservation(tool('bash', '[3 turns and ~5 tokens left]\nmore'));
    expect(observation).toMatchObject({ text: '[3 turns and ~5 tokens left]\nmore', turnsLeft: null, tokensLeft: null });
  });

  it('reads the last message, and nothing before the first observation', () => {
    expect(lastObservation([{ role: 'system', content: 's' }, { role: 'user', content: 'u' }])?.tool).toBeNull();
    expect(lastObservation([{ role: 'assistant', content: 'a' }])).toBeNull();
    expect(lastObservation([{ role: 'user', content: 'u' }, tool('bash', 'ok')])?.text).toBe('ok');
  });
});
