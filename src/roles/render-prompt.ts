import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../util/package-root.js';
import { EngineError } from '../util/engine-error.js';

/** Values a template may use; numbers are written as JavaScript prints them. */
export type PromptVariables = Readonly<Record<string, string | number>>;

/**
 * The templates under `prompts/` that are rendered on their own (`injector-common` is only
 * included; `solver-statement` is both: the Solver prompt includes it, the SWE-bench export renders it;
 * the `*-runner-javascript` sections go into the role prompts of a JS/TS repo).
 */
export const PROMPT_NAMES = [
  'system', 'injector-removal', 'injector-history', 'injector-direct', 'solver', 'solver-statement',
  'injector-runner-javascript', 'solver-runner-javascript',
] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];

// `{{name}}` is a variable, `{{> file}}` includes prompts/file.md; anything else between braces
// is a typo the renderer refuses rather than sends to the model.
const TOKEN = /\{\{(.*?)\}\}/gs;
const VARIABLE = /^\s*([a-z_][a-z0-9_]*)\s*$/;
const INCLUDE = /^\s*>\s*([a-z0-9][a-z0-9-]*)\s*$/;
const MAX_INCLUDE_DEPTH = 8;

export interface RenderOptions {
  /** Names the template in errors (e.g. "prompts/solver.md"). */
  name: string;
  /** Text of an included template by name; without it an include is an error. */
  include?: (name: string) => string;
}

function configError(message: string): EngineError {
  return new EngineError('config-invalid', message);
}

function expandIncludes(template: string, options: RenderOptions, stack: readonly string[]): string {
  return template.replace(TOKEN, (token, inner: string) => {
    const include = INCLUDE.exec(inner)?.[1];
    if (include === undefined) return token;
    if (stack.includes(include)) throw configError(`${options.name}: include cycle ${[...stack, include].join(' → ')}`);
    if (stack.length > MAX_INCLUDE_DEPTH) throw configError(`${options.name}: includes nested deeper than ${MAX_INCLUDE_DEPTH}`);
    if (!options.include) throw configError(`${options.name}: includes "${include}" but no include source was given`);
    return expandIncludes(options.include(include), options, [...stack, include]);
  });
}

/**
 * Strict rendering: every `{{name}}` must have a value and every value must be used, so a renamed
 * variable or a stale caller fails loudly instead of sending the model a hole. Values are inserted
 * in one pass and never rescanned (a diff holding `{{` is safe).
 *
 * @throws EngineError `config-invalid` naming the missing, unused or malformed variable.
 */
export function renderTemplate(template: string, variables: PromptVariables, options: RenderOptions): string {
  const expanded = expandIncludes(template, options, []);
  const used = new Set<string>();
  const missing = new Set<string>();
  const rendered = expanded.replace(TOKEN, (token, inner: string) => {
    const name = VARIABLE.exec(inner)?.[1];
    if (name === undefined) throw configError(`${options.name}: malformed placeholder ${JSON.stringify(token)} (expected {{name}} or {{> file}})`);
    if (!Object.hasOwn(variables, name)) {
      missing.add(name);
      return token;
    }
    used.add(name);
    return String(variables[name]);
  });
  if (missing.size > 0) throw configError(`${options.name}: no value for template variable(s) ${[...missing].join(', ')}`);
  const unused = Object.keys(variables).filter((name) => !used.has(name));
  if (unused.length > 0) throw configError(`${options.name}: variable(s) given but not used by the template: ${unused.join(', ')}`);
  return rendered;
}

/**
 * `prompts/` under the package root. The templates are plain Markdown read at runtime; the
 * compiled build (dist/src/roles/...) does not copy them, so both find them by walking up.
 */
export function promptsDir(): string {
  return packagePath('prompts');
}

function readTemplate(dir: string, name: string): string {
  const path = join(dir, `${name}.md`);
  if (!existsSync(path)) throw configError(`prompt template ${path} does not exist`);
  return readFileSync(path, 'utf8');
}

/** Render `prompts/<name>.md` (and the templates it includes) with `variables`, strictly. */
export function renderPrompt(name: PromptName, variables: PromptVariables, dir: string = promptsDir()): string {
  return renderTemplate(readTemplate(dir, name), variables, { name: `prompts/${name}.md`, include: (included) => readTemplate(dir, included) });
}
