import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { EngineError } from '../util/engine-error.js';
import { knownKeysAt } from './known-keys.js';
import { reposFileSchema, type ReposFile } from './repos-schema.js';
import { yamlLines, type YamlLines } from './yaml-lines.js';

/** "repos[2].source.commit" from a zod path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * One line per zod issue; with `lines`, prefixed by `file:line`. An unknown key names itself,
 * its own line and the keys that are known there.
 */
export function describeIssues(error: z.ZodError, fileLabel: string, lines?: YamlLines, schema: z.ZodType = reposFileSchema): string[] {
  return error.issues.flatMap((issue) => {
    const at = (line: number | undefined) => (line === undefined ? fileLabel : `${fileLabel}:${line}`);
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, issue.path);
      return issue.keys.map((key) => `${at(lines?.lineOf(issue.path, key))}: ${formatPath(issue.path)}: unknown key "${key}" (known keys: ${known.join(', ')})`);
    }
    return [`${at(lines?.lineOf(issue.path))}: ${formatPath(issue.path)}: ${issue.message}`];
  });
}

/** Parse repos.yaml text. Errors name the file, the line, the YAML path and the problem. */
export function parseReposYaml(text: string, fileLabel = 'repos.yaml'): ReposFile {
  return parseReposDocument(text, fileLabel).file;
}

/** {@link parseReposYaml}, also returning where each YAML path sits in the text. */
export function parseReposDocument(text: string, fileLabel = 'repos.yaml'): { file: ReposFile; lines: YamlLines } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, lineCounter: counter });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    throw new EngineError('config-invalid', `${fileLabel}: broken YAML: ${first.message.split('\n')[0]}`);
  }
  const lines = yamlLines(doc, counter);
  const result = reposFileSchema.safeParse(doc.toJS());
  if (!result.success) {
    throw new EngineError('config-invalid', describeIssues(result.error, fileLabel, lines).join('\n'));
  }
  return { file: Object.freeze(result.data) as ReposFile, lines };
}

export interface LoadedRepos {
  file: ReposFile;
  /** Directory relative paths in the file are resolved against. */
  baseDir: string;
  path: string;
  /** Where each YAML path sits in the file (for errors that point at a line, e.g. a failing setup step). */
  lines?: YamlLines;
}

export async function loadReposFile(path: string): Promise<LoadedRepos> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EngineError('config-invalid', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const { file, lines } = parseReposDocument(text, path);
  return { file, baseDir: dirname(path), path, lines };
}
