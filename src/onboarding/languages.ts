import type { RepoFiles } from './repo-files.js';

/** Source extensions per language; the language with the most tracked files is the repo's. */
export const languages: Readonly<Record<string, readonly string[]>> = {
  python: ['.py'],
  javascript: ['.js', '.mjs', '.cjs', '.jsx'],
  typescript: ['.ts', '.tsx', '.mts'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
};

/** The repo's main language and how many files said so; undefined when no file has a known extension. */
export function detectLanguage(files: RepoFiles): { language: string; files: number } | undefined {
  let best: { language: string; files: number } | undefined;
  for (const [language, extensions] of Object.entries(languages)) {
    const count = files.paths.filter((path) => extensions.some((extension) => path.endsWith(extension))).length;
    if (count > 0 && (best === undefined || count > best.files)) best = { language, files: count };
  }
  return best;
}
