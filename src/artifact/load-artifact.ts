import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeNonText, findNonTextBytes } from '../code/text-bytes.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { ARTIFACT_FILES, REQUIRED_ARTIFACT_FILES, bugArtifactSchema, type ArtifactFileKey, type BugArtifact } from './bug-artifact.js';
import { parseTestFilesList } from './test-files-list.js';

const MB = 1024 * 1024;

/** Size caps: a diff may be large (a removed module), a script or list never needs to be. */
export const ARTIFACT_SIZE_LIMITS: Record<ArtifactFileKey, number> = {
  bugInject: 5 * MB,
  testWeaken: 5 * MB,
  testFiles: 1 * MB,
  testScript: 1 * MB,
  testParser: 1 * MB,
  metadata: 1 * MB,
};

/** Read one file of the artifact; a problem is returned as text, never thrown. */
async function readPart(dir: string, key: ArtifactFileKey): Promise<{ text: string } | { problem: string } | { missing: true }> {
  const name = ARTIFACT_FILES[key];
  const path = join(dir, name);
  const info = await stat(path).catch(() => null);
  if (!info) return { missing: true };
  if (!info.isFile()) return { problem: `${name} is not a regular file` };
  const limit = ARTIFACT_SIZE_LIMITS[key];
  if (info.size > limit) return { problem: `${name} is ${info.size} bytes; the limit is ${limit / MB} MB (${limit} bytes)` };
  const bytes = await readFile(path).catch((error: unknown) => error as Error);
  if (bytes instanceof Error) return { problem: `${name} cannot be read: ${errorMessage(bytes)}` };
  const nonText = findNonTextBytes(bytes);
  if (nonText) {
    const expected = name.endsWith('.diff') ? 'a text unified diff' : 'a text file';
    return { problem: `${name}: ${describeNonText(nonText)}; expected ${expected}` };
  }
  return { text: bytes.toString('utf8') };
}

function parseMetadata(text: string): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `${ARTIFACT_FILES.metadata} is not valid JSON: ${errorMessage(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: `${ARTIFACT_FILES.metadata} must hold a JSON object, got ${Array.isArray(value) ? 'an array' : String(value)}` };
  }
  return { value: value as Record<string, unknown> };
}

/**
 * Load an artifact directory (the five files of method §2, plus an optional metadata.json).
 * Only unreadable input is an error here: a diff that parses but does not apply, or touches the
 * wrong files, loads fine and fails the `existence` check (an invalid artifact, exit 1). Binary
 * data in a diff counts as unreadable (usage error, exit 2): no diff tool could read it.
 *
 * @throws EngineError `artifact-invalid-input` naming every problem found: the directory is
 *   missing or not a directory, files are missing (all listed), too large, binary or not UTF-8,
 *   metadata.json is not a JSON object, test_files.txt has absolute, `..` or duplicate paths.
 */
export async function loadArtifactDir(dir: string): Promise<BugArtifact> {
  const info = await stat(dir).catch(() => null);
  if (!info) throw new EngineError('artifact-invalid-input', `artifact directory ${dir} does not exist`);
  if (!info.isDirectory()) throw new EngineError('artifact-invalid-input', `artifact path ${dir} is not a directory`);

  const keys: ArtifactFileKey[] = [...REQUIRED_ARTIFACT_FILES, 'metadata'];
  const parts = await Promise.all(keys.map((key) => readPart(dir, key)));
  const texts: Partial<Record<ArtifactFileKey, string>> = {};
  const missing: string[] = [];
  const problems: string[] = [];
  keys.forEach((key, index) => {
    const part = parts[index]!;
    if ('missing' in part) {
      if (key !== 'metadata') missing.push(ARTIFACT_FILES[key]);
    } else if ('problem' in part) problems.push(part.problem);
    else texts[key] = part.text;
  });
  if (missing.length > 0) problems.unshift(`missing ${missing.join(', ')}`);

  let testFiles: string[] = [];
  if (texts.testFiles !== undefined) {
    const list = parseTestFilesList(texts.testFiles);
    testFiles = list.files;
    problems.push(...list.problems.map((problem) => `${ARTIFACT_FILES.testFiles} ${problem}`));
  }
  let metadata: Record<string, unknown> | undefined;
  if (texts.metadata !== undefined) {
    const parsed = parseMetadata(texts.metadata);
    if ('problem' in parsed) problems.push(parsed.problem);
    else metadata = parsed.value;
  }
  if (problems.length > 0) throw new EngineError('artifact-invalid-input', `invalid artifact directory ${dir}: ${problems.join('; ')}`);

  return bugArtifactSchema.parse({
    bugInject: texts.bugInject,
    testWeaken: texts.testWeaken,
    testFiles,
    testScript: texts.testScript,
    testParser: texts.testParser,
    ...(metadata ? { metadata } : {}),
  });
}
