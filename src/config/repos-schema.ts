import { z } from 'zod';
import { jsRunnerSchema } from './js-runner.js';

/** The threshold fields alone (no cross-field rule), for schemas that take some of them (`.partial()`). */
export const thresholdFieldsSchema = z
  .object({
    min_passing_tests: z.number().int().min(1).default(10).describe('tests that must pass on the original repo'),
    min_changed_files: z.number().int().min(1).default(1).describe('code files bug_inject.diff must change'),
    min_failing_tests: z.number().int().min(1).default(1).describe('oracle tests that must fail with the bug'),
    max_failing_tests: z
      .number()
      .int()
      .min(1)
      .default(40)
      .describe('breadth cap: oracle tests the bug may make fail (more is a blunt bug, e.g. a crash on import)'),
    max_failing_files: z.number().int().min(1).default(8).describe('breadth cap: test files those failing tests may span'),
  })
  .strict();

/** method §3 thresholds; any of them may be overridden per repo. */
export const thresholdsSchema = thresholdFieldsSchema.superRefine((t, ctx) => {
  if (t.max_failing_tests < t.min_failing_tests) {
    ctx.addIssue({ code: 'custom', path: ['max_failing_tests'], message: `must be at least min_failing_tests (${t.min_failing_tests})` });
  }
});
export type Thresholds = z.infer<typeof thresholdsSchema>;

export const limitsSchema = z
  .object({
    test_timeout_s: z.number().positive().max(3600).default(90).describe('wall-clock limit of one test_script.sh run'),
    memory_mb: z.number().int().min(64).default(2048).describe('memory limit of one sandbox'),
    cpus: z.number().positive().max(64).default(1).describe('CPU quota of one sandbox'),
    pids: z.number().int().min(16).default(512).describe('process limit of one sandbox'),
  })
  .strict();
export type Limits = z.infer<typeof limitsSchema>;

/**
 * Relevant-test selection (src/validator/selection/): the validator's runs of a bug's states
 * collect only the test files that execute the changed lines (or import the changed files), so a bug costs what
 * its relevant tests cost. `auto` and `always` select by O's per-test coverage on any suite; when
 * it cannot say, `auto` falls back to the import graph when the clean suite takes at least `above_s`.
 */
export const testSelectionSchema = z
  .object({
    mode: z.enum(['auto', 'always', 'never']).default('auto').describe('when the validator runs only the tests relevant to a bug'),
    above_s: z.number().nonnegative().default(30).describe('clean-suite seconds from which `auto` selects by the import graph when coverage cannot say'),
  })
  .strict();
export type TestSelectionSettings = z.infer<typeof testSelectionSchema>;

/**
 * The test runner whose script and parser ssr uses for a repo's own runs (golden gate, `ssr
 * test-run`, the procedural Injector's starting point): pytest for Python (it also runs unittest
 * TestCases and doctests), or one of the JavaScript / TypeScript runners in
 * src/harness/defaults/js/.
 */
const TEST_RUNNERS = ['pytest', ...jsRunnerSchema.options] as const;
export const testRunnerSchema = z.enum(TEST_RUNNERS, { error: `expected one of ${TEST_RUNNERS.join(', ')}` });
export type TestRunner = z.infer<typeof testRunnerSchema>;

export const testSettingsSchema = z
  .object({
    runner: testRunnerSchema.default('pytest').describe("the repo's test runner: pytest, or jest / vitest / mocha / node-test / tape / node-tap for a JS or TS repo"),
  })
  .strict();
export type TestSettings = z.infer<typeof testSettingsSchema>;

const sha = z.string({ error: 'expected a 40-hex sha' }).regex(/^[0-9a-f]{40}$/, 'expected a 40-hex sha');

/**
 * Where the repository comes from: a local git checkout (`path`, at HEAD unless `commit` pins it),
 * or a git URL / bare repo / bundle file (`git`) at a pinned `commit`.
 * One flat object (not a union) so errors name the exact field, e.g. `repos[2].source.commit`.
 */
export const sourceSchema = z
  .object({
    path: z.string().min(1).optional().describe('local git repository'),
    git: z.string().min(1).optional().describe('git URL, bare repo or bundle file'),
    commit: sha.optional().describe('pinned commit (required with git)'),
  })
  .strict()
  .superRefine((source, ctx) => {
    if ((source.path === undefined) === (source.git === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'expected exactly one of "path" or "git"' });
    }
    if (source.git !== undefined && source.commit === undefined) {
      ctx.addIssue({ code: 'custom', path: ['commit'], message: 'expected a 40-hex sha (required with "git")' });
    }
  });
export type RepoSource = z.infer<typeof sourceSchema>;

/** `image.base` of the debootstrapped Debian rootfs ssr builds itself. */
export const DEBIAN_PYTHON_BASE = 'debian-python';

const pipArgs = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)], { error: 'expected install arguments: a string or a list of strings' })
  .describe('arguments of `pip install` / `uv pip install`: a string (shell words) or a list (each one argument)');

const npmArgs = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)], { error: 'expected npm arguments: a string or a list of strings' })
  .refine((args) => (typeof args === 'string' ? args.trim().split(/\s+/)[0] : args[0]) === 'ci', {
    error: 'expected `ci` (with its flags, e.g. "ci --ignore-scripts"): ssr installs a JS repo\'s dependencies from its lockfile only',
  })
  .describe('arguments of `npm`: `ci` and its flags, as a string (shell words) or a list (each one argument)');

/**
 * One image build step. A string is a shell command run in /repo; `pip` / `uv` install packages
 * against the package index the user configured on the host (PIP_* / UV_* variables, pip.conf,
 * uv.toml: passed through or mounted for the build only, never into the image); `npm: ci`
 * installs a JS repo's dependencies from its lockfile into /repo/node_modules, baked into the
 * image (the registry is reached at build time only; episodes stay without network).
 */
export const setupStepSchema = z.union(
  [
    z.string().min(1).describe('shell command run in /repo (no network unless a pip / uv step of the recipe reaches a URL index)'),
    z.object({ pip: pipArgs }).strict(),
    z.object({ uv: pipArgs }).strict(),
    z.object({ npm: npmArgs }).strict(),
  ],
  { error: 'expected a shell command string, { pip: <args> }, { uv: <args> } or { npm: ci }' },
);
export type SetupStep = z.infer<typeof setupStepSchema>;

export const imageRecipeSchema = z
  .object({
    base: z
      .string()
      .regex(/^[a-z0-9][a-zA-Z0-9._/:@-]*$/, 'expected "debian-python" or a Docker image reference (name[:tag] or name@sha256:...)')
      .default(DEBIAN_PYTHON_BASE)
      .describe('"debian-python" (the Debian rootfs ssr builds) or a Docker image you already have (Docker sandbox only)'),
    packages: z.array(z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/, 'expected a Debian package name')).default([]).describe('extra Debian packages (debian-python base only)'),
    setup: z.array(setupStepSchema).default([]).describe('build steps run in /repo at image build time, in order'),
  })
  .strict()
  .superRefine((recipe, ctx) => {
    if (recipe.base !== DEBIAN_PYTHON_BASE && recipe.packages.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['packages'], message: `extra Debian packages need base "${DEBIAN_PYTHON_BASE}"; with your own image install them in the image, or with a setup step` });
    }
  });
export type ImageRecipe = z.infer<typeof imageRecipeSchema>;

export const repoEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected a lower-case id (letters, digits, . _ -)'),
    repo: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected owner/name (as on GitHub)')
      .optional()
      .describe('owner/name that `ssr export --format swe-bench` writes as the instances\' `repo` (default ssr-local/<id>)'),
    source: sourceSchema,
    image: imageRecipeSchema.prefault({}),
    thresholds: thresholdsSchema.prefault({}),
    limits: limitsSchema.prefault({}),
    test_selection: testSelectionSchema.prefault({}),
    test: testSettingsSchema.prefault({}),
  })
  .strict();
export type RepoEntry = z.infer<typeof repoEntrySchema>;

export const reposFileSchema = z
  .object({
    repos: z.array(repoEntrySchema).min(1, 'expected at least one repo'),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.repos.forEach((repo, index) => {
      const first = seen.get(repo.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['repos', index, 'id'], message: `duplicate id "${repo.id}" (first at repos[${first}])` });
      } else seen.set(repo.id, index);
    });
  });
export type ReposFile = z.infer<typeof reposFileSchema>;
