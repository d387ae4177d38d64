import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmFailureHint } from '../../../src/sandbox/images/npm-failure.js';
import { buildStep } from '../../../src/sandbox/images/setup-step.js';

// npm 9's output (Debian bookworm, the sandbox's npm) when a native module's build fails.
const NPM9_GYP = `npm ERR! code 1
npm ERR! path /repo/node_modules/@scope/native-thing
npm ERR! command failed
npm ERR! command sh -c node-gyp rebuild
npm ERR! gyp info it worked if it ends with ok
npm ERR! gyp info using node-gyp@9.3.0
npm ERR! gyp ERR! build error
npm ERR! gyp ERR! stack Error: not found: make
npm ERR! gyp ERR! not ok

npm ERR! A complete log of this run can be found in: /tmp/ssr-npm-cache/_logs/x.log
`;

describe('npmFailureHint', () => {
  it('names the native module that did not build, the gyp error, and both fixes', () => {
    const hint = npmFailureHint(NPM9_GYP)!;
    expect(hint).toContain('the native module @scope/native-thing did not build at npm ci (`node-gyp rebuild`: not found: make)');
    expect(hint).toContain('image.packages in repos.yaml (build-essential');
    expect(hint).toContain('{ npm: "ci --ignore-scripts" }');
  });

  it.each([
    ['prebuild-install behind npm 10 wording', 'npm error code 1\nnpm error path /repo/node_modules/a/node_modules/sharp\nnpm error command failed\nnpm error command sh -c -- prebuild-install || node-gyp rebuild\n', 'the native module sharp did not build'],
    ['a plain install script', 'npm ERR! code 2\nnpm ERR! path /repo/node_modules/husky\nnpm ERR! command failed\nnpm ERR! command sh -c node install.js\n', 'the install script of husky failed at npm ci (`node install.js`)'],
    ["the repo's own prepare script", 'npm ERR! code 1\nnpm ERR! path /repo\nnpm ERR! command failed\nnpm ERR! command sh -c tsc -p .\n', "the repo's own lifecycle script failed at npm ci (`tsc -p .`)"],
    ['an unreachable registry', 'npm ERR! code ENOTFOUND\nnpm ERR! syscall getaddrinfo\nnpm ERR! network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\n', 'npm could not reach its registry at image build (ENOTFOUND'],
  ])('%s', (_label, output, expected) => {
    expect(npmFailureHint(output)).toContain(expected);
  });

  it('says nothing about output it cannot read', () => {
    expect(npmFailureHint('npm ERR! code EUSAGE\nnpm ERR! The `npm ci` command can only install with an existing package-lock.json\n')).toBeUndefined();
    expect(npmFailureHint('')).toBeUndefined();
  });

  it("reads the host npm's real output for a dependency whose install script fails (a tarball built in tmp)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-npm-fail-'));
    try {
      const dep = join(dir, 'dep');
      mkdirSync(dep);
      writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'broken-native', version: '1.0.0', scripts: { install: 'node -e "process.exit(3)"' } }));
      const repo = join(dir, 'repo');
      mkdirSync(repo);
      execFileSync('npm', ['pack', '--silent', '--pack-destination', repo], { cwd: dep, stdio: 'pipe' });
      writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', private: true, dependencies: { 'broken-native': 'file:broken-native-1.0.0.tgz' } }));
      execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'pipe' });
      execFileSync('git', ['init', '-q', repo]);
      const { command, env } = buildStep({ npm: 'ci' });
      let output = '';
      try {
        execFileSync('/bin/bash', ['-c', command], { cwd: repo, env: { ...process.env, ...env, npm_config_offline: 'true' }, stdio: 'pipe' });
      } catch (error) {
        output = String((error as { stderr: Buffer }).stderr) + String((error as { stdout: Buffer }).stdout);
      }
      expect(output).not.toBe('');
      expect(npmFailureHint(output)).toContain('the install script of broken-native failed at npm ci (`node -e "process.exit(3)"`)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
