import { describe, expect, it } from 'vitest';
import { isFileNamingConfig, namedFiles, runnerNamedFiles } from '../../../../src/roles/grading/runner-named-files.js';
import { sanitizePatch } from '../../../../src/roles/grading/sanitize-patch.js';

const section = (path: string): string => `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;

describe('runnerNamedFiles: the files an original runner config names as machinery', () => {
  it('reads Vitest setup files, global setup and reporters whatever their names, relative to the config', () => {
    const config = `import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['./tools/x.ts', 'helpers/prepare.mjs'],
    globalSetup: "./tools/global",
    reporters: ['default', './tools/my-reporter.ts'],
    include: ['test/**/*.test.ts'],
    coverage: { include: ['src/index.ts'] },
  },
});
`;
    const files = namedFiles('packages/app/vitest.config.ts', config);
    expect(files).toEqual(expect.arrayContaining(['packages/app/tools/x.ts', 'packages/app/helpers/prepare.mjs', 'packages/app/tools/my-reporter.ts', 'packages/app/tools/global.ts', 'packages/app/tools/global/index.js']));
    // Coverage and collection globs are not machinery; package names are not paths.
    expect(files).not.toContain('packages/app/src/index.ts');
    expect(files.some((file) => file.includes('default') || file.includes('node'))).toBe(false);
  });

  it('reads Jest setupFilesAfterEnv, globalTeardown, testEnvironment, transform and <rootDir> paths', () => {
    const config = `module.exports = {
  setupFilesAfterEnv: ['<rootDir>/support/after-env.js'],
  globalTeardown: '<rootDir>/support/teardown.cjs',
  testEnvironment: './support/env.js',
  transform: { '^.+\\\\.tsx?$': '<rootDir>/support/transform.js' },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
};
`;
    expect(namedFiles('jest.config.js', config)).toEqual(['support/after-env.js', 'support/env.js', 'support/teardown.cjs', 'support/transform.js']);
  });

  it('reads package.json\'s runner fields only: its "exports" name the package\'s own code', () => {
    const pkg = JSON.stringify({ exports: { '.': { require: './index.js', import: './index.mjs' } }, jest: { setupFiles: ['./support/polyfills.js'] }, mocha: { require: ['./support/hooks.cjs'] } });
    expect(namedFiles('package.json', pkg)).toEqual(['support/hooks.cjs', 'support/polyfills.js']);
    expect(namedFiles('package.json', '{ not json')).toEqual([]);
  });

  it('reads a YAML .mocharc list and a .taprc', () => {
    expect(namedFiles('.mocharc.yml', 'require:\n  - ./support/register.js\n  - ts-node/register\nspec: test/**/*.spec.js\nreporter: ./support/reporter.js\n')).toEqual(['support/register.js', 'support/reporter.js']);
    expect(namedFiles('.taprc', 'before: ./support/before.js\nnode-arg: [--require, ./support/hook.js]\n')).toEqual(['support/before.js', 'support/hook.js']);
  });

  it('keeps paths that leave the repo out, and knows which files are such configs', () => {
    expect(namedFiles('vitest.config.ts', "export default { test: { setupFiles: ['../outside.ts', '/abs/x.ts'] } }")).toEqual([]);
    expect(['vitest.config.mts', 'jest.config.json', '.mocharc.cjs', 'package.json', 'sub/vite.config.js'].every(isFileNamingConfig)).toBe(true);
    expect(['node_modules/x/package.json', 'src/config.ts', 'tsconfig.json'].some(isFileNamingConfig)).toBe(false);
  });

  it('makes sanitizePatch drop a change to a named setup file as runner config, and keep the code beside it', () => {
    const named = runnerNamedFiles([{ path: 'vitest.config.ts', text: "export default { test: { setupFiles: ['./tools/x.ts'] } }" }]);
    const patch = section('tools/x.ts') + section('src/calc.ts');
    expect(sanitizePatch(patch, [])).toMatchObject({ status: 'ok', dropped: [] });
    const result = sanitizePatch(patch, [], named);
    expect(result).toMatchObject({ status: 'ok', dropped: [{ path: 'tools/x.ts', reason: 'runner-config' }] });
    expect(result.status === 'ok' && result.patch).not.toContain('tools/x.ts');
    expect(sanitizePatch(section('tools/x.ts'), [], named)).toMatchObject({ status: 'rejected', code: 'no-code-change' });
  });
});
