import { extname } from 'node:path';
import { z } from 'zod';
import { EngineError } from '../util/engine-error.js';

/**
 * A language whose modules the engine parses and mutates. `tsx` is TypeScript with JSX: it needs
 * its own tree-sitter grammar (`<T>x` is a cast in `.ts` and an element in `.tsx`).
 */
export const sourceLanguageSchema = z.enum(['python', 'javascript', 'typescript', 'tsx']);
export type SourceLanguage = z.infer<typeof sourceLanguageSchema>;

/** The languages the JavaScript operators apply to: tree-sitter-typescript extends the JS grammar's node kinds. */
export const JS_LANGUAGES: readonly SourceLanguage[] = ['javascript', 'typescript', 'tsx'];

const BY_EXTENSION: Readonly<Record<string, SourceLanguage>> = {
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
};

/** The language of a file by its extension, or undefined for a file the engine does not mutate. */
export function languageOfPath(path: string): SourceLanguage | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/** {@link languageOfPath}, as a usage error naming the known extensions when there is none. */
export function requireLanguageOfPath(path: string): SourceLanguage {
  const language = languageOfPath(path);
  if (!language) throw new EngineError('usage', `cannot tell the language of ${path}; known extensions: ${Object.keys(BY_EXTENSION).join(', ')}`);
  return language;
}
