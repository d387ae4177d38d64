import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { invertUnifiedDiff } from '../code/invert-diff.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { imageRecipeSchema, limitsSchema, testSelectionSchema, thresholdsSchema } from '../config/repos-schema.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { readDefaultTestFiles } from '../harness/default-files.js';
import { testScript } from '../policy/procedural/injector/test-suite.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import type { EvalInstance } from './eval-instance.js';
import type { RepoLookup } from './repo-lookup.js';

const SHA = /^[0-9a-f]{40}$/;

/**
 * The fields ssr reads of a SWE-bench-format line: ssr's own exports carry them all; another
 * instance needs at least `instance_id`, `original_commit` (the fixed commit O), `patch`,
 * `test_patch` and a source (`environment_bundle`, or a `repo_id` of repos.yaml), and may name
 * its Docker image as a string in `image` (the environment ssr puts the repo into).
 */
const lineSchema = z.looseObject({
  instance_id: z.string().min(1),
  repo: z.string().optional(),
  repo_id: z.string().optional(),
  original_commit: z.string().regex(SHA, 'expected the 40-hex sha of the original (fixed) commit').optional(),
  environment_bundle: z.string().optional(),
  image: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  patch: z.string(),
  test_patch: z.string(),
  bug_patch: z.string().optional(),
  test_files: z.array(z.string()).optional(),
  test_script: z.string().optional(),
  test_parser: z.string().optional(),
  strategy: z.string().optional(),
});
type Line = z.infer<typeof lineSchema>;

/**
 * A SWE-bench-format JSONL file as eval instances.
 * @throws EngineError `artifact-invalid-input` naming the file and line of a bad line; `usage` when
 *   a line's repo cannot be found.
 */
export async function loadJsonlSet(file: string, lookup: RepoLookup): Promise<EvalInstance[]> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new EngineError('usage', `--set ${file}: cannot read it (${errorMessage(error)})`);
  });
  const instances: EvalInstance[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const where = `${file}:${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new EngineError('artifact-invalid-input', `${where}: not JSON: ${errorMessage(error)}`);
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) throw new EngineError('artifact-invalid-input', `${where}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    instances.push(await instanceOf(parsed.data, where, dirname(file), lookup));
  }
  return instances;
}

async function instanceOf(line: Line, where: string, baseDir: string, lookup: RepoLookup): Promise<EvalInstance> {
  if (!line.original_commit) throw new EngineError('artifact-invalid-input', `${where}: no original_commit: ssr needs the fixed commit O the bug is injected into (ssr export writes it)`);
  const id = line.repo_id ?? (line.repo ?? 'external').replace(/[^A-Za-z0-9_.-]+/g, '__');
  const known = await lookup(id, where).catch(() => undefined);
  const bundle = line.environment_bundle === undefined ? undefined : isAbsolute(line.environment_bundle) ? line.environment_bundle : resolve(baseDir, line.environment_bundle);
  if (!known && !bundle) throw new EngineError('usage', `${where}: repo ${id} is not in repos.yaml and the line has no environment_bundle: give --repos <file> or --repo <path>, or add environment_bundle`);
  const userImage = typeof line.image === 'string' ? line.image : undefined;
  const image = userImage !== undefined ? imageRecipeSchema.parse({ base: userImage }) : line.image ? imageRecipeSchema.parse(line.image) : (known?.image ?? imageRecipeSchema.parse({}));
  const repo: ResolvedRepo = {
    ...(known ?? { thresholds: thresholdsSchema.parse({}), limits: limitsSchema.parse({}), testSelection: testSelectionSchema.parse({}) }),
    id,
    location: bundle ?? known!.location,
    commit: line.original_commit,
    image,
  };
  return { instanceId: line.instance_id, repo, kind: line.strategy ?? 'external', artifact: artifactOf(line, where), ...(userImage ? { userImage } : {}) };
}

/** The five files of a line: ssr's own fields, else derived from `patch` / `test_patch` with pytest's script and parser. */
function artifactOf(line: Line, where: string): BugArtifact {
  try {
    const testFiles = line.test_files ?? parseUnifiedDiff(line.test_patch).touchedPaths;
    const defaults = readDefaultTestFiles();
    return {
      bugInject: line.bug_patch ?? invertUnifiedDiff(line.patch),
      testWeaken: invertUnifiedDiff(line.test_patch),
      testFiles,
      testScript: line.test_script ?? testScript({ kind: 'pytest' }, testFiles),
      testParser: line.test_parser ?? defaults.testParser,
    };
  } catch (error) {
    throw new EngineError('artifact-invalid-input', `${where}: ${errorMessage(error)}`);
  }
}
