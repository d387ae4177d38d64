import { describe, expect, it } from 'vitest';
import type { AgentRole } from '../../../src/policy/policy.js';
import { toolsForRole } from '../../../src/tools/registry.js';
import { toToolSpec } from '../../../src/tools/tool.js';

describe('toolsForRole', () => {
  it.each<[AgentRole, string[]]>([
    ['injector', ['bug_inject', 'test_weaken', 'test_files', 'test_script', 'test_parser']],
    ['solver', ['patch']],
  ])('%s gets bash, edit, create and its own submit (%j)', (role, submitArgs) => {
    const specs = toolsForRole(role).map(toToolSpec);
    expect(specs.map((s) => s.name)).toEqual(['bash', 'edit', 'create', 'submit']);
    const submit = specs[3]!;
    expect(submit.parameters).toMatchObject({ type: 'object', required: submitArgs, additionalProperties: false });
    expect(Object.keys(submit.parameters.properties as object)).toEqual(submitArgs);
  });

  it('derives the model-facing JSON schema from the zod schema, descriptions included', () => {
    const [bash, edit, create] = toolsForRole('solver').map(toToolSpec);
    expect(bash).toEqual({
      name: 'bash',
      description: expect.stringContaining('persistent bash shell'),
      parameters: {
        type: 'object',
        properties: { command: { type: 'string', minLength: 1, description: expect.stringContaining('Bash command') } },
        required: ['command'],
        additionalProperties: false,
      },
    });
    expect(edit!.parameters).toMatchObject({ required: ['path', 'search', 'replace'] });
    expect(create!.parameters).toMatchObject({ required: ['path', 'content'] });
    for (const spec of [bash, edit, create]) expect(spec!.parameters).not.toHaveProperty('$schema');
  });

  it.each<[string, unknown, boolean]>([
    ['bash', { command: 'ls' }, true],
    ['bash', { command: '' }, false],
    ['bash', { cmd: 'ls' }, false],
    ['edit', { path: 'a.py', search: 'x', replace: '' }, true],
    ['edit', { path: 'a.py', search: 'x' }, false],
    ['create', { path: '', content: 'x' }, false],
    ['submit', { patch: '/ssr/p.diff' }, true],
    ['submit', { patch: 3 }, false],
  ])('%s validates %j: %s', (name, args, ok) => {
    const tool = toolsForRole('solver').find((t) => t.name === name)!;
    expect(tool.schema.safeParse(args).success).toBe(ok);
  });
});
