import Parser from 'tree-sitter';
import JavaScript from 'tree-sitter-javascript';
import TypeScript from 'tree-sitter-typescript';
import { parsePython } from './python/parse-python.js';
import type { SourceLanguage } from './source-language.js';

let parsers: Map<SourceLanguage, Parser> | undefined;

const GRAMMARS: Readonly<Record<Exclude<SourceLanguage, 'python'>, () => unknown>> = {
  javascript: () => JavaScript,
  typescript: () => (TypeScript as { typescript: unknown }).typescript,
  tsx: () => (TypeScript as { tsx: unknown }).tsx,
};

const CHUNK = 64 * 1024;

/**
 * Parse a module of any {@link SourceLanguage}; Python goes through {@link parsePython} unchanged.
 * Never throws on bad code: tree-sitter marks the damage with ERROR / MISSING nodes (`hasError`).
 * Node offsets are JS string indices into `source`, as for Python. With `oldTree` (a tree of the
 * previous text, `edit()`ed to match the change) the parse is incremental: only the edited region
 * is re-read (JS/TS only; Python takes no old tree).
 */
export function parseSource(source: string, language: SourceLanguage, oldTree?: Parser.Tree): Parser.Tree {
  if (language === 'python') return parsePython(source);
  parsers ??= new Map();
  let parser = parsers.get(language);
  if (!parser) {
    // One native parser per grammar and process: loading a grammar is the costly part.
    parser = new Parser();
    parser.setLanguage(GRAMMARS[language]() as Parser.Language);
    parsers.set(language, parser);
  }
  return parser.parse((index: number) => source.slice(index, index + CHUNK), oldTree);
}
