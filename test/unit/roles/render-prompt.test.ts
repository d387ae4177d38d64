import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPrompt, renderTemplate, type PromptVariables } from '../../../src/roles/render-prompt.js';
import { isEngineError } from '../../../src/util/engine-error.js';

const includes: Record<string, string> = {
  common: 'Common part with {{n}}.',
  nested: 'Outer {{> common}} after.',
  loop: 'Loop {{> loop}}',
};
const options = { name: 'prompts/t.md', include: (name: string) => includes[name] ?? `(no ${name})` };

function failure(template: string, variables: PromptVariables, opts: Parameters<typeof renderTemplate>[2] = options): string {
  try {
    renderTemplate(template, variables, opts);
  } catch (error) {
    if (!isEngineError(error)) throw error;
    expect(error.code).toBe('config-invalid');
    return error.message;
  }
  throw new Error(`rendered without an error: ${template}`);
}

describe('renderTemplate', () => {
  it.each<[string, string, PromptVariables, string]>([
    ['one variable', 'At least {{n}} tests.', { n: 10 }, 'At least 10 tests.'],
    ['spaces inside the braces', 'x={{ n }}', { n: 'y' }, 'x=y'],
    ['a variable used twice', '{{a}}-{{a}}', { a: 1 }, '1-1'],
    ['an include', 'Start. {{> common}}', { n: 3 }, 'Start. Common part with 3.'],
    ['a nested include', '{{> nested}}', { n: 4 }, 'Outer Common part with 4. after.'],
    ['a value holding braces, not rescanned', 'Diff: {{d}}', { d: '+ x = "{{n}}"' }, 'Diff: + x = "{{n}}"'],
    ['a value holding $& replacement patterns', '{{d}}', { d: "s.replace(/a/, '$&$1')" }, "s.replace(/a/, '$&$1')"],
  ])('renders %s', (_label, template, variables, expected) => {
    expect(renderTemplate(template, variables, options)).toBe(expected);
  });

  it.each<[string, string, PromptVariables, RegExp]>([
    ['a missing variable', 'At least {{min_passing_tests}} tests.', {}, /prompts\/t\.md: no value for template variable\(s\) min_passing_tests/],
    ['several missing variables', '{{a}} {{b}} {{a}}', {}, /no value for template variable\(s\) a, b$/],
    ['an unused variable', 'Nothing here.', { extra: 1 }, /variable\(s\) given but not used by the template: extra/],
    ['a variable only an include would use, include missing', '{{> missing-one}}', { n: 1 }, /not used by the template: n/],
    ['a malformed placeholder', 'Hello {{Name}}', { Name: 'x' }, /malformed placeholder "\{\{Name\}\}"/],
    ['an empty placeholder', 'Hello {{}}', {}, /malformed placeholder "\{\{\}\}"/],
    ['an include cycle', '{{> loop}}', {}, /include cycle loop → loop/],
  ])('refuses %s, naming it', (_label, template, variables, message) => {
    expect(failure(template, variables)).toMatch(message);
  });

  it('refuses an include when no include source is given', () => {
    expect(failure('{{> common}}', { n: 1 }, { name: 'x.md' })).toMatch(/x\.md: includes "common" but no include source/);
  });
});

describe('renderPrompt', () => {
  it('reads templates and their includes from the given prompts folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssr-prompts-'));
    await writeFile(join(dir, 'solver.md'), 'Fix it:\n{{> part}}\n');
    await writeFile(join(dir, 'part.md'), '{{reversed_test_weaken}}');
    expect(renderPrompt('solver', { reversed_test_weaken: 'DIFF' }, dir)).toBe('Fix it:\nDIFF\n');
  });

  it('names a missing template file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssr-prompts-'));
    expect(() => renderPrompt('system', {}, dir)).toThrow(/prompt template .*system\.md does not exist/);
  });
});
