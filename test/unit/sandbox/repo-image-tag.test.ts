import { describe, expect, it } from 'vitest';
import { imageRecipeSchema, limitsSchema, thresholdsSchema } from '../../../src/config/repos-schema.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { baseImageTag } from '../../../src/sandbox/docker/base-image.js';
import { repoImageTag } from '../../../src/sandbox/docker/repo-image.js';
import { baseRootfsHash } from '../../../src/sandbox/images/base-rootfs.js';

function repo(overrides: Partial<ResolvedRepo> = {}): ResolvedRepo {
  return {
    id: 'demo',
    location: '/srv/demo',
    commit: 'a'.repeat(40),
    image: imageRecipeSchema.parse({}),
    thresholds: thresholdsSchema.parse({}),
    limits: limitsSchema.parse({}),
    ...overrides,
  };
}

const recipe = (packages: string[], setup: string[] = []) => imageRecipeSchema.parse({ packages, setup });

describe('repoImageTag', () => {
  it('is ssr-repo-<id>:<12 hex> and stable', () => {
    expect(repoImageTag(repo())).toMatch(/^ssr-repo-demo:[0-9a-f]{12}$/);
    expect(repoImageTag(repo())).toBe(repoImageTag(repo()));
  });

  it.each([
    ['the commit', { commit: 'b'.repeat(40) }],
    ['an image scope (an image its builder removes when done)', { imageScope: 'ssr mine --out /runs/m' }],
    ['the setup commands', { image: recipe([], ['pip install -e .']) }],
    ['the extra packages', { image: recipe(['make']) }],
  ])('changes with %s', (_, overrides) => {
    expect(repoImageTag(repo(overrides))).not.toBe(repoImageTag(repo()));
  });

  it.each([
    ['thresholds', { thresholds: thresholdsSchema.parse({ min_passing_tests: 99 }) }],
    ['limits', { limits: limitsSchema.parse({ memory_mb: 512 }) }],
  ])('ignores %s (they apply at acquire time)', (_, overrides) => {
    expect(repoImageTag(repo(overrides))).toBe(repoImageTag(repo()));
  });

  it('is the same for every clone or worktree of the repo: the commit, not where it was cloned from, names the content', () => {
    expect(repoImageTag(repo({ location: '/home/dev/other-clone' }))).toBe(repoImageTag(repo()));
    expect(repoImageTag(repo({ location: 'https://example.com/demo.git' }))).toBe(repoImageTag(repo()));
  });

  it('ignores the order of extra packages', () => {
    expect(repoImageTag(repo({ image: recipe(['make', 'gcc']) }))).toBe(repoImageTag(repo({ image: recipe(['gcc', 'make']) })));
  });
});

describe('base image tag', () => {
  it('shares the rootfs hash and ignores the mirror and duplicate packages', () => {
    const plain = recipe([]);
    expect(baseImageTag(plain)).toBe(`ssr-base:${baseRootfsHash(plain)}`);
    expect(baseRootfsHash(recipe(['git', 'python3']))).toBe(baseRootfsHash(plain));
    process.env.SSR_DEBIAN_MIRROR = 'http://mirror.example/debian';
    try {
      expect(baseRootfsHash(plain)).toBe(baseRootfsHash(recipe([])));
    } finally {
      delete process.env.SSR_DEBIAN_MIRROR;
    }
    expect(baseRootfsHash(recipe(['make']))).not.toBe(baseRootfsHash(plain));
  });
});
