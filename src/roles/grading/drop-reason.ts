import { z } from 'zod';

/**
 * Why a file section of a Solver's patch was dropped before grading (method §4: only changes to
 * code files count; nothing may change how the tests are collected or run):
 * - `outside-repo`: an absolute path, a `..` segment, or git's own metadata (`.git/`);
 * - `symlink`: a symbolic link added, changed or removed (a fix never needs one; one can point out
 *   of the repo or at a test file);
 * - `oracle-test-file`: a file of test_files.txt (restored to the original anyway);
 * - `startup-hook`: code the interpreter runs at start-up (sitecustomize, usercustomize, `.pth`);
 * - `runner-config`: runner configuration (pytest.ini, tox.ini, setup.cfg, pyproject.toml,
 *   conftest.py anywhere, `__init__.py` of a test package, .coveragerc, …; for JS runners
 *   package.json, jest/vitest/vite/babel configs, .mocharc, .taprc, setup files and reporters,
 *   and any file the ORIGINAL tree's runner configs name as setup file, reporter or environment);
 * - `test-file`: any other test material (`tests/…`, `test_*.py`, `__mocks__/`, …);
 * - `shadows-module`: a new module named like the runner, a plugin or the standard library, or
 *   anything under `node_modules/` (the installed runner and packages);
 * - `non-code`: anything that is not a source file (docs, data, config);
 * - `doctest-example`: hunks of a code file that change doctest example lines (`>>>` lines and
 *   their expected output: test code inside a code file); the file's other hunks are kept.
 */
export const dropReasonSchema = z.enum([
  'outside-repo',
  'symlink',
  'oracle-test-file',
  'startup-hook',
  'runner-config',
  'test-file',
  'shadows-module',
  'non-code',
  'doctest-example',
]);
export type DropReason = z.infer<typeof dropReasonSchema>;

/** One dropped file section: its path (the new path, or the old one for a deletion) and why. */
export const droppedSectionSchema = z.object({ path: z.string(), reason: dropReasonSchema });
export type DroppedSection = z.infer<typeof droppedSectionSchema>;
