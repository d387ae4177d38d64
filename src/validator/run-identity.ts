import type { BugArtifact } from '../artifact/bug-artifact.js';
import { stableStringify } from '../util/stable-json.js';
import { BaselineCache } from './baseline-cache.js';

/** Everything a test run's result depends on besides the tree it runs on. */
export interface RunIdentityParts {
  /** The sandbox image (its content-addressed ref): the same commit in another image may differ. */
  imageRef: string;
  commit: string;
  artifact: Pick<BugArtifact, 'testScript' | 'testParser'>;
  testTimeoutMs: number;
  /** Extra environment of the runs (relevant-test selection); absent for full runs. */
  env?: Record<string, string>;
}

/**
 * The cache key's prefix of a state's runs (see StateRunner): the image, the commit, the test
 * script's and parser's full text, the time limit and the extra environment. A procedural
 * Injector writes one test script per set of oracle files, so bugs over the same files share O's
 * two runs and bugs over other files run their own: a cached run is served only where every part
 * here, and the tree (state-tree.ts), is the same.
 */
export function runIdentity(parts: RunIdentityParts): string[] {
  const identity = [parts.imageRef, parts.commit, parts.artifact.testScript, parts.artifact.testParser, String(parts.testTimeoutMs)];
  return parts.env ? [...identity, stableStringify(parts.env)] : identity;
}

/** The cache key of one run: the identity, the tree's content id, and whether it is O's second run. */
export function stateRunKey(identity: readonly string[], tree: string, repeat: boolean): string {
  return BaselineCache.key([...identity, tree, repeat ? 'repeat' : 'first']);
}
