import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { imageRecipeSchema, limitsSchema, thresholdsSchema, type SetupStep } from '../../../src/config/repos-schema.js';
import { bwrapSetupCommands } from '../../../src/sandbox/bwrap/bwrap-template.js';
import { buildStep, hasPipStep } from '../../../src/sandbox/images/setup-step.js';
import { basePackages } from '../../../src/sandbox/images/base-rootfs.js';

describe('buildStep', () => {
  it.each<[string, SetupStep, string, string]>([
    ['a shell string', 'make -C native', 'make -C native', 'make -C native'],
    ['pip words', { pip: '-r requirements.txt' }, 'pip: -r requirements.txt', 'python3 -m pip install -r requirements.txt'],
    ['a pip list, quoted', { pip: ['numpy', 'pandas<3'] }, "pip: numpy 'pandas<3'", "python3 -m pip install numpy 'pandas<3'"],
    ['uv', { uv: ['-e', '.'] }, 'uv: -e .', 'uv pip install --system --break-system-packages -e .'],
  ])('%s', (_label, step, label, command) => {
    const built = buildStep(step);
    expect(built.label).toBe(label);
    expect(built.command.endsWith(command)).toBe(true);
  });

  it('says which installer is missing, in the words of the step, not bash\'s "command not found"', () => {
    const check = buildStep({ uv: 'six' }).command.split('\n')[0]!;
    const result = (() => {
      try {
        execFileSync('/bin/bash', ['-c', check], { env: { PATH: '/nonexistent' }, stdio: 'pipe' });
        return { status: 0, stderr: '' };
      } catch (error) {
        return error as { status: number; stderr: Buffer };
      }
    })();
    expect(result.status).toBe(127);
    expect(String(result.stderr)).toContain('uv is not installed in the image: add a step { pip: uv } before this one');
  });

  it('adds pip to the Debian rootfs only for recipes with a pip step', () => {
    expect(hasPipStep(['make', { uv: 'x' }])).toBe(false);
    expect(basePackages(imageRecipeSchema.parse({ setup: [{ pip: 'six' }] }))).toContain('python3-pip');
    expect(basePackages(imageRecipeSchema.parse({ setup: ['make'] }))).not.toContain('python3-pip');
  });
});

describe('bwrapSetupCommands', () => {
  const repo = (image: object) => ({
    id: 'demo', location: '/srv/demo', commit: 'a'.repeat(40), image: imageRecipeSchema.parse(image),
    thresholds: thresholdsSchema.parse({}), limits: limitsSchema.parse({}), setupOrigins: ['repos.yaml:9', 'repos.yaml:10'],
  });

  it('keeps shell steps', () => {
    expect(bwrapSetupCommands(repo({ setup: ['make'] }))).toEqual(['make']);
  });

  it.each([
    ['a pip step', { setup: ['make', { pip: 'six' }] }, 'repos.yaml:10: setup step `pip: six` installs into the image\'s Python, which a bubblewrap template cannot'],
    ['a user base image', { base: 'swebench/env:1' }, 'demo: image.base swebench/env:1 is a Docker image; bubblewrap sandboxes only start from ssr\'s debian-python rootfs: use --sandbox docker'],
  ])('refuses %s clearly', (_label, image, message) => {
    expect(() => bwrapSetupCommands(repo(image))).toThrow(message);
  });
});
