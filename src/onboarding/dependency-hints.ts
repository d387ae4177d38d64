import { z } from 'zod';
import { setupStepSchema } from '../config/repos-schema.js';
import type { RepoFiles } from './repo-files.js';

/** One thing the repo says about its dependencies, and the setup step that installs them when ssr can tell. */
export const dependencyHintSchema = z.object({
  file: z.string(),
  detail: z.string(),
  /** Written into the entry's image.setup; absent when the hint is for the user to act on. */
  step: setupStepSchema.optional(),
});
export type DependencyHint = z.infer<typeof dependencyHintSchema>;

const REQUIREMENTS = /^(requirements[^/]*\.txt|requirements\/[^/]+\.txt)$/;

/** The requirement lines of a requirements file (comments, blanks and pip options other than -r / -c left out). */
function requirementLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '' && (!line.startsWith('-') || /^-[rc]\s|^--(requirement|constraint)\b/.test(line)));
}

/** The body of a TOML `[name]` table, up to the next table. */
function section(text: string, name: string): string {
  const start = text.indexOf(`[${name}]`);
  if (start === -1) return '';
  const rest = text.slice(start + name.length + 2);
  const next = rest.search(/^\[/m);
  return next === -1 ? rest : rest.slice(0, next);
}

/** The quoted strings of a TOML / INI list value. */
function quoted(text: string): string[] {
  return [...text.matchAll(/["']([^"']+)["']/g)].map((match) => match[1]!);
}

/**
 * Dependency hints of a Python repo: requirements files become `pip: [-r, file]` steps (the user's
 * package index serves them at build time); declared dependencies of a pyproject.toml / setup.cfg /
 * setup.py are listed for the user, since installing the project itself needs its build backend.
 */
export async function dependencyHints(files: RepoFiles): Promise<DependencyHint[]> {
  const hints: DependencyHint[] = [];
  for (const path of files.paths.filter((candidate) => REQUIREMENTS.test(candidate))) {
    const lines = requirementLines((await files.read(path)) ?? '');
    if (lines.length === 0) hints.push({ file: path, detail: 'no requirements in it' });
    else hints.push({ file: path, detail: `${lines.length} requirement(s): ${lines.slice(0, 5).join(', ')}${lines.length > 5 ? ', …' : ''}`, step: { pip: ['-r', path] } });
  }
  const project = section((await files.read('pyproject.toml')) ?? '', 'project');
  const declared = /^\s*dependencies\s*=\s*\[([\s\S]*?)\]/m.exec(project);
  const projectDeps = declared ? quoted(declared[1]!) : [];
  if (projectDeps.length > 0) hints.push({ file: 'pyproject.toml', detail: `[project] dependencies: ${projectDeps.join(', ')}: add a setup step { pip: [${projectDeps.map((dep) => JSON.stringify(dep)).join(', ')}] } (or { pip: "." } when its build backend is in your index)` });
  const setupCfg = /install_requires\s*=\s*\n((?:[ \t]+\S.*\n?)+)/.exec((await files.read('setup.cfg')) ?? '');
  if (setupCfg) hints.push({ file: 'setup.cfg', detail: `install_requires: ${setupCfg[1]!.trim().split(/\s*\n\s*/).join(', ')}: add them as a setup step { pip: [...] }` });
  if (files.paths.includes('setup.py') && /install_requires/.test((await files.read('setup.py')) ?? '')) {
    hints.push({ file: 'setup.py', detail: 'declares install_requires (not read): add them as a setup step { pip: [...] }' });
  }
  return hints;
}
