import type { TestRunner } from '../../config/repos-schema.js';
import type { RepoFiles } from '../repo-files.js';
import type { Detector } from './detector.js';
import { JS_LANGUAGES } from './js-languages.js';
import { readJsPackage, rootFiles, scriptRunner } from './js-package.js';
import { typescriptTestsVerdict } from './js-typescript-tests.js';

/** What tells one JS runner apart: its config files, package.json key, package name, and any other sign. */
export interface JsRunnerSigns {
  runner: TestRunner;
  /** Root config files, e.g. /^jest\.config\.[cm]?[jt]s$/. */
  configFiles?: RegExp;
  /** A top-level package.json key that configures it ("jest", "mocha"). */
  packageKey?: string;
  /** The npm package that provides it. */
  dependency?: string;
  /** The command a user types when scripts.test does not say. */
  defaultCommand: string;
  /** Further evidence read from the files (e.g. tests importing node:test). */
  moreEvidence?: (files: RepoFiles) => Promise<string[]>;
}

/**
 * A detector for one JS runner. scripts.test decides when it names a runner (this one or another,
 * which then wins); only without a test script do config files, the package.json key and the
 * dependency speak. A script that runs something else is left to the unknown-runner detector.
 * TypeScript test files a runner cannot run in the sandbox refuse it, or warn (js-typescript-tests.ts).
 */
export function jsDetector(signs: JsRunnerSigns): Detector {
  return {
    languages: JS_LANGUAGES,
    runner: signs.runner,
    async detect(files) {
      const pkg = await readJsPackage(files);
      if (pkg === undefined) return undefined;
      const script = scriptRunner(pkg);
      if (script.kind === 'unknown' || (script.kind === 'known' && script.runner !== signs.runner)) return undefined;
      const evidence = script.kind === 'known' ? [`package.json scripts.test: ${script.command}`] : [];
      if (signs.configFiles) evidence.push(...rootFiles(files, signs.configFiles));
      if (signs.packageKey && pkg.keys.has(signs.packageKey)) evidence.push(`package.json "${signs.packageKey}" key`);
      if (signs.dependency && pkg.dependencies.has(signs.dependency)) evidence.push(`${signs.dependency} in package.json dependencies`);
      if (signs.moreEvidence) evidence.push(...(await signs.moreEvidence(files)));
      if (evidence.length === 0) return undefined;
      const found = {
        language: 'javascript',
        runner: signs.runner,
        testCommand: script.kind === 'known' ? `npm test (${script.command})` : signs.defaultCommand,
        evidence,
      };
      const typescript = await typescriptTestsVerdict(files, signs.runner);
      if (typescript.status === 'refuse') return { ...found, supported: false, note: typescript.note };
      return { ...found, testRunner: signs.runner, supported: true, ...(typescript.status === 'warn' ? { warning: typescript.warning } : {}) };
    },
  };
}
