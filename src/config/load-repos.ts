import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { EngineError } from '../util/engine-error.js';
import { reposFileSchema, type ReposFile } from './repos-schema.js';

/** "repos[2].source.commit" from a zod path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

/** Parse repos.yaml text. Errors name the YAML path and the problem. */
export function parseReposYaml(text: string, fileLabel = 'repos.yaml'): ReposFile {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    throw new EngineError('config-invalid', `${fileLabel}: broken YAML: ${first.message.split('\n')[0]}`);
  }
  const result = reposFileSchema.safeParse(doc.toJS());
  if (!result.success) {
    throw new EngineError('config-invalid', `${fileLabel}: ${formatZodIssues(result.error).join('; ')}`);
  }
  return Object.freeze(result.data) as ReposFile;
}

export interface LoadedRepos {
  file: ReposFile;
  /** Directory relative paths in the file are resolved against. */
  baseDir: string;
  path: string;
}

export async function loadReposFile(path: string): Promise<LoadedRepos> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EngineError('config-invalid', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return { file: parseReposYaml(text, path), baseDir: dirname(path), path };
}
