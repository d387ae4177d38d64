import { createHash } from 'node:crypto';
import { REQUIRED_ARTIFACT_FILES, type BugArtifact } from './bug-artifact.js';

/** Bumped if the encoding below ever changes, so old and new ids can never collide. */
const ENCODING_VERSION = 'ssr-artifact-id/1';

function update(hash: ReturnType<typeof createHash>, label: string, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  hash.update(`${label}\n${bytes.length}\n`);
  hash.update(bytes);
}

/**
 * Content id of an artifact: `bug-` + 16 hex chars of a sha256 over its five files. Every part
 * (each file, each listed test path) is length-prefixed, so no two different artifacts encode the
 * same. test_files.txt enters as its sorted list of paths, so comments, blank lines and order do
 * not change the id; metadata is excluded (it describes the bug, it is not the bug).
 */
export function artifactId(artifact: BugArtifact): string {
  const hash = createHash('sha256');
  hash.update(`${ENCODING_VERSION}\n`);
  for (const key of REQUIRED_ARTIFACT_FILES) {
    if (key !== 'testFiles') {
      update(hash, key, artifact[key]);
      continue;
    }
    const files = [...artifact.testFiles].sort();
    hash.update(`${key}\n${files.length}\n`);
    for (const file of files) update(hash, 'path', file);
  }
  return `bug-${hash.digest('hex').slice(0, 16)}`;
}
