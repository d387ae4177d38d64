import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, parseDocument, YAMLSeq } from 'yaml';
import { parseReposYaml } from '../config/load-repos.js';
import { writeFileAtomic } from '../corpus/atomic-write.js';
import { EngineError } from '../util/engine-error.js';

const HEADER = '# The repositories ssr plays on. One entry per repo, pinned to a commit.\n# Schema: src/config/repos-schema.ts of ssr (relative paths are resolved against this file\'s folder).\n';

/**
 * Add `entry` to the repos.yaml at `file` (created when absent), or replace the entry with its
 * id, keeping every other entry and comment as written. The result is parsed with the real schema
 * before it is written, so a file ssr cannot load is never left behind.
 * @returns whether an entry was replaced (false: added).
 */
export async function writeReposEntry(file: string, entry: { id: string } & Record<string, unknown>, comment: string): Promise<boolean> {
  const text = existsSync(file) ? await readFile(file, 'utf8') : `${HEADER}repos: []\n`;
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new EngineError('config-invalid', `${file}: broken YAML (${doc.errors[0]!.message.split('\n')[0]}): fix it before ssr init adds an entry`);
  let repos = doc.get('repos', true);
  if (!isSeq(repos)) {
    repos = new YAMLSeq();
    doc.set('repos', repos);
  }
  const seq = repos as YAMLSeq;
  seq.flow = false;
  const node = doc.createNode(entry);
  node.commentBefore = comment.split('\n').map((line) => ` ${line}`).join('\n');
  const index = seq.items.findIndex((item) => isMap(item) && isScalar(item.get('id', true)) && item.get('id') === entry.id);
  if (index === -1) seq.items.push(node);
  else seq.items[index] = node;
  const out = doc.toString({ lineWidth: 0 });
  parseReposYaml(out, file);
  await writeFileAtomic(file, out);
  return index !== -1;
}
