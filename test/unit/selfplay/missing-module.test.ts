import { describe, expect, it } from 'vitest';
import { judgeGoldenGate, type CleanRun } from '../../../src/selfplay/golden-gate/judge-golden-gate.js';
import { missingJsModuleIn } from '../../../src/selfplay/golden-gate/missing-js-module.js';
import { installStep, missingModuleIn } from '../../../src/selfplay/golden-gate/missing-module.js';

/** The end of a real pytest log whose tests need `six`: the summary line hides the cause. */
const LOG = [
  '==================================== ERRORS ====================================',
  '___________________ ERROR collecting tests/test_compat.py ____________________',
  'tests/test_compat.py:3: in <module>',
  '    from six.moves import urllib',
  "E   ModuleNotFoundError: No module named 'six'",
  '=========================== short test summary info ============================',
  'ERROR tests/test_compat.py',
  '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!',
  '=============================== 1 error in 0.12s ===============================',
].join('\n');

describe('a clean run that cannot import a module', () => {
  it('names the module and the packages that provide it, also when the import name is not the package name', () => {
    expect(missingModuleIn(LOG)).toEqual({ module: 'six', error: "ModuleNotFoundError: No module named 'six'", debian: 'python3-six', pip: 'six' });
    expect(missingModuleIn("ModuleNotFoundError: No module named 'yaml.constructor'")).toMatchObject({ module: 'yaml', debian: 'python3-yaml', pip: 'PyYAML' });
    expect(missingModuleIn('ImportError: No module named typing_extensions')).toMatchObject({ module: 'typing_extensions', debian: 'python3-typing-extensions' });
    expect(missingModuleIn('1 failed, 2 passed in 0.3s')).toBeUndefined();
  });

  it('the line init tries is a pip step of the package, not of the import name', () => {
    expect(installStep(missingModuleIn(LOG)!)).toEqual({ pip: 'six' });
    expect(installStep(missingModuleIn("ModuleNotFoundError: No module named 'PIL'")!)).toEqual({ pip: 'Pillow' });
  });

  it('the gate refusal names the module and the repos.yaml lines, not only the log\'s last line', () => {
    const run: CleanRun = { statuses: { 'tests/test_compat.py': 'failed' }, durationMs: 500, timedOut: false, logTail: '1 error in 0.12s', missingModule: missingModuleIn(LOG)! };
    const gate = judgeGoldenGate([run, run], 90_000, { repo: 'compat', commit: 'c0', image: 'img:1' }, { minPassingTests: 1, memoryMb: 2048 });
    expect(gate.status === 'refused' && gate.reason).toMatch(
      /^repo compat: the clean test suite fails: 0 of 1 tests pass.*its log shows "ModuleNotFoundError: No module named 'six'": the image lacks six: install it from repos\.yaml with image\.packages: \[python3-six\] \(a Debian package\) or an image\.setup step \{ pip: six \}/,
    );
  });

  it("a module of the repo itself is not sent to a package index", () => {
    const run: CleanRun = { statuses: { 't::a': 'failed' }, durationMs: 500, timedOut: false, missingModule: { ...missingModuleIn("ModuleNotFoundError: No module named 'calc'")!, own: true } };
    const gate = judgeGoldenGate([run, run], 90_000, { repo: 'calc', commit: 'c0', image: 'img:1' });
    expect(gate.status === 'refused' && gate.reason).toMatch(/its log shows "ModuleNotFoundError: No module named 'calc'", a module of the repo itself: the tests cannot import it from \/repo: install the project with an image\.setup step \{ pip: "\." \}/);
    expect(gate.status === 'refused' && gate.reason).not.toMatch(/python3-calc/);
  });
});

describe('a clean JavaScript run that cannot find a module', () => {
  // Each line as Node 20 (CommonJS, ESM), Jest and Vite / Vitest print it.
  it.each([
    ["Error: Cannot find module 'left-pad'\nRequire stack:\n- /repo/src/pad.js", 'left-pad', "Cannot find module 'left-pad'"],
    ["Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@acme/widgets' imported from /repo/test/a.test.mjs", '@acme/widgets', "Cannot find package '@acme/widgets' imported from"],
    ["    Cannot find module 'lodash/fp' from 'src/index.js'", 'lodash', "Cannot find module 'lodash/fp'"],
    ['Error: Failed to resolve import "@acme/widgets/button" from "src/app.ts". Does the file exist?', '@acme/widgets', 'Failed to resolve import "@acme/widgets/button"'],
    ['Error: Failed to load url dayjs (resolved id: dayjs) in /repo/src/when.ts. Does the file exist?', 'dayjs', 'Failed to load url dayjs (resolved id:'],
  ])('%s names the npm package %s', (log, module, error) => {
    expect(missingJsModuleIn(`FAIL test/a.test.js\n${log}\nTests: 1 failed, 1 total`)).toEqual({ module, error, debian: `node-${module.replace('@', '').replace('/', '-')}`, pip: module, node: true });
  });

  it("a relative or absolute path is the repo's own file, not a package", () => {
    expect(missingJsModuleIn("Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/repo/dist/index.js' imported from /repo/test/a.test.mjs")).toMatchObject({ module: '/repo/dist/index.js', own: true });
    expect(missingJsModuleIn("Cannot find module './build/Release/addon' from 'src/native.js'")).toMatchObject({ module: './build/Release/addon', own: true });
    expect(missingJsModuleIn('Tests: 3 passed, 3 total')).toBeUndefined();
  });

  it('the gate refusal of a JS repo names the package and how to install it, never a pip step', () => {
    const missing = missingJsModuleIn("Error: Cannot find module 'left-pad'\nRequire stack:")!;
    const run: CleanRun = { statuses: {}, durationMs: 500, timedOut: false, logTail: 'ssr-json-report-end', missingModule: missing };
    const gate = judgeGoldenGate([run, run], 90_000, { repo: 'pads', commit: 'c0', image: 'img:1' }, { minPassingTests: 1, memoryMb: 2048, runner: 'jest' });
    expect(gate.status === 'refused' && gate.reason).toMatch(
      /^repo pads: the clean test suite gave no test statuses .*its log shows "Cannot find module 'left-pad'": the image lacks the npm package left-pad: list it in package\.json's dependencies or devDependencies \(and its lockfile\) and install it with an image\.setup step \{ npm: ci \}/,
    );
    expect(gate.status === 'refused' && gate.reason).not.toMatch(/pip/);
  });
});
