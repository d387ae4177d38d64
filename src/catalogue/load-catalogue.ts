import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseDocument } from 'yaml';
import { describeIssues } from '../config/load-repos.js';
import { EngineError } from '../util/engine-error.js';
import { catalogueEntrySchema, type CatalogueEntry } from './catalogue-entry-schema.js';

/** Parse one `catalogue/<id>.yaml`; errors name the file and the YAML path. */
export function parseCatalogueEntry(text: string, file: string): CatalogueEntry {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new EngineError('config-invalid', `${file}: broken YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const result = catalogueEntrySchema.safeParse(doc.toJS());
  if (!result.success) throw new EngineError('config-invalid', describeIssues(result.error, file, undefined, catalogueEntrySchema).join('; '));
  if (`${result.data.id}.yaml` !== basename(file)) throw new EngineError('config-invalid', `${file}: id "${result.data.id}" must match the file name`);
  return result.data;
}

/** Every entry of a catalogue folder, sorted by id. */
export function loadCatalogue(dir: string): CatalogueEntry[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort();
  } catch (error) {
    throw new EngineError('config-invalid', `catalogue folder ${dir} cannot be read: ${(error as Error).message}`);
  }
  return files.map((name) => parseCatalogueEntry(readFileSync(join(dir, name), 'utf8'), join(dir, name)));
}
