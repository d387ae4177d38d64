import { describe, expect, it } from 'vitest';
import { readDefaultTestFiles } from '../../../src/harness/default-files.js';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';
import { repoTestFiles, runnerLanguage, runnerOf } from '../../../src/harness/repo-test-files.js';
import { loadReposFile } from '../../../src/config/load-repos.js';
import { resolveRepo } from '../../../src/config/resolve-repo.js';
import { ROOT_REPOS_YAML } from '../../helpers/sandboxes.js';

describe('a repo\'s test runner', () => {
  it('is pytest when repos.yaml names none, with the pytest -rA pair', () => {
    expect(runnerOf({})).toBe('pytest');
    expect(runnerLanguage('pytest')).toBe('python');
    expect(repoTestFiles({})).toEqual(readDefaultTestFiles());
  });

  it('gives a JS runner its own script and parser', () => {
    expect(runnerLanguage('jest')).toBe('javascript');
    expect(repoTestFiles({ testRunner: 'mocha' })).toEqual(readJsTestFiles('mocha'));
    expect(repoTestFiles({ testRunner: 'mocha' }).testScript).not.toEqual(readDefaultTestFiles().testScript);
  });

  it('reaches the resolved jskit example as node:test with the TAP parser', async () => {
    const repo = await resolveRepo('jskit', await loadReposFile(ROOT_REPOS_YAML));
    expect(repo.testRunner).toBe('node-test');
    expect(repoTestFiles(repo)).toEqual(readJsTestFiles('node-test'));
    const pyledger = await resolveRepo('pyledger', await loadReposFile(ROOT_REPOS_YAML));
    expect(runnerOf(pyledger)).toBe('pytest');
  });
});
