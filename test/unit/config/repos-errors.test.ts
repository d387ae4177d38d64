import { describe, expect, it } from 'vitest';
import { parseReposYaml } from '../../../src/config/load-repos.js';

const SHA = 'a'.repeat(40);
const entry = (extra: string) => `repos:\n  - id: a\n    source: { git: u, commit: ${SHA} }\n${extra}`;

describe('repos.yaml errors', () => {
  it.each([
    ['a misspelt top-level entry key', entry('    imgae: {}\n'), 'repos.yaml:4: repos[0]: unknown key "imgae" (known keys: id, repo, source, image, thresholds, limits, test_selection, test)'],
    ['an unknown image key', entry('    image:\n      base: debian-python\n      setpu: []\n'), 'repos.yaml:6: repos[0].image: unknown key "setpu" (known keys: base, packages, setup)'],
    ['an unknown limit', entry('    limits: { timeout: 3 }\n'), 'repos.yaml:4: repos[0].limits: unknown key "timeout" (known keys: test_timeout_s, memory_mb, cpus, pids)'],
    ['an unknown source key', `repos:\n  - id: a\n    source:\n      path: .\n      branch: main\n`, 'repos.yaml:5: repos[0].source: unknown key "branch" (known keys: path, git, commit)'],
    ['an unknown file key', `repos:\n  - id: a\n    source: { path: . }\nextras: 1\n`, 'repos.yaml:4: (root): unknown key "extras" (known keys: repos)'],
    ['a setup step of no known form', entry('    image:\n      setup:\n        - true\n        - { pipx: black }\n'), 'repos.yaml:7: repos[0].image.setup[1]: expected a shell command string, { pip: <args> }, { uv: <args> } or { npm: ci }'],
    ['packages on a user base image', entry('    image: { base: "swebench/env:1", packages: [make] }\n'), 'repos[0].image.packages: extra Debian packages need base "debian-python"'],
    ['an unknown test runner', entry('    test: { runner: ava }\n'), 'repos[0].test.runner: expected one of pytest, jest, vitest, mocha, node-test, tape, node-tap'],
    ['an unknown test key', entry('    test:\n      runer: jest\n'), 'repos.yaml:5: repos[0].test: unknown key "runer" (known keys: runner)'],
    ['a base that is no image reference', entry('    image: { base: "Not An Image" }\n'), 'repos[0].image.base: expected "debian-python" or a Docker image reference'],
  ])('%s: names the line, the path and what is known', (_label, text, expected) => {
    expect(() => parseReposYaml(text)).toThrow(expected);
  });

  it('reports every unknown key of a file, one line each', () => {
    const text = entry('    colour: red\n    size: 3\n');
    expect(() => parseReposYaml(text)).toThrow(/repos\.yaml:4: repos\[0\]: unknown key "colour"[^\n]*\nrepos\.yaml:5: repos\[0\]: unknown key "size"/);
  });

  it('accepts the three setup step forms and an image reference', () => {
    const file = parseReposYaml(entry('    image:\n      base: ghcr.io/acme/env@sha256:abc\n      setup:\n        - make\n        - pip: -r requirements.txt\n        - uv: [numpy, "pandas<3"]\n'));
    expect(file.repos[0]!.image).toEqual({ base: 'ghcr.io/acme/env@sha256:abc', packages: [], setup: ['make', { pip: '-r requirements.txt' }, { uv: ['numpy', 'pandas<3'] }] });
  });
});
