import { z } from 'zod';
import { imageRecipeSchema, limitsSchema, testRunnerSchema, thresholdFieldsSchema } from '../config/repos-schema.js';
import { npmSourceSchema } from './npm-source-schema.js';

/**
 * A Debian binary package that ships the upstream test suite beside the code: `apt-get download`
 * fetches it from the archive the host already uses (offline-safe once cached), `dpkg-deb -x`
 * unpacks it, and `paths` under `/usr/lib/python3/dist-packages` become the repo's top level.
 */
export const debianSourceSchema = z
  .object({
    type: z.literal('debian'),
    package: z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/, 'expected a Debian package name'),
    version: z.string().min(1).describe('the exact Debian version (apt-get download <package>=<version>)'),
    paths: z.array(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a top-level name under dist-packages')).min(1),
  })
  .strict();

/**
 * An upstream git repository with its real history (for local benchmark runs: CI cannot fetch).
 * `scripts/catalogue-fetch --mirror <dir>` clones `<dir>/<owner>+<name>` instead of the URL.
 */
export const gitSourceSchema = z
  .object({
    type: z.literal('git'),
    url: z.string().url(),
    repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected owner/name'),
    commit: z.string().regex(/^[0-9a-f]{40}$/, 'expected a 40-hex sha'),
  })
  .strict();

/** One real Python or JavaScript / TypeScript project of the catalogue (`catalogue/<id>.yaml`). */
export const catalogueEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected a lower-case id (letters, digits, . _ -)'),
    description: z.string().min(1),
    source: z.discriminatedUnion('type', [debianSourceSchema, gitSourceSchema, npmSourceSchema]),
    /**
     * Options written to `/repo/pytest.ini` (one `key = value` line each) so that ssr's default
     * test command, `python3 -m pytest -rA -p no:cacheprovider` in /repo, runs this suite.
     */
    pytest: z.record(z.string().regex(/^[a-z_]+$/), z.string()).default({}),
    /**
     * Files ssr adds to the repo in its own commit (path relative to the repo root → text), e.g. a
     * `.mocharc.json` that points Mocha at the suite's folder. Existing files are not replaced.
     */
    files: z.record(z.string().regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[A-Za-z0-9_./-]+$/, 'expected a path inside the repo'), z.string()).default({}),
    style: z.enum(['pytest', 'unittest', 'doctest', 'tape', 'mocha', 'jest', 'vitest', 'node-test', 'node-tap']).describe('how the upstream tests are written'),
    /** The runner whose script and parser ssr uses (repos.yaml `test.runner`); pytest by default. */
    test: z.object({ runner: testRunnerSchema.default('pytest') }).strict().prefault({}),
    history: z.enum(['single-commit', 'upstream']).describe('one snapshot commit, or the real upstream history'),
    /** Measured here with the default test command in the default image (1 CPU). */
    measured: z
      .object({
        passing: z.number().int().nonnegative(),
        failing: z.number().int().nonnegative(),
        clean_suite_s: z.number().nonnegative(),
        on: z.string().describe('date and machine of the measurement'),
      })
      .strict(),
    image: imageRecipeSchema.prefault({}),
    thresholds: thresholdFieldsSchema.partial().default({}),
    limits: limitsSchema.partial().default({}),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.source.type === 'npm' && entry.test.runner === 'pytest') {
      ctx.addIssue({ code: 'custom', path: ['test', 'runner'], message: 'an npm source needs a JavaScript test runner (tape, mocha, jest, vitest, node-test or node-tap)' });
    }
    if (entry.source.type === 'npm' && !entry.image.setup.some((step) => typeof step !== 'string' && 'npm' in step)) {
      ctx.addIssue({ code: 'custom', path: ['image', 'setup'], message: 'an npm source needs an `npm: ci` setup step (its dependencies come from the pinned lockfile)' });
    }
  });
export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;
