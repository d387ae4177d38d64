import { describe, expect, it } from 'vitest';
import { imageRecipeSchema, limitsSchema, thresholdsSchema } from '../../../src/config/repos-schema.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { judgedRepo } from '../../../src/mining/judge-commit.js';
import { repoImageTag } from '../../../src/sandbox/docker/repo-image.js';

const pinned = 'a'.repeat(40);
const older = 'b'.repeat(40);
const repo: ResolvedRepo = {
  id: 'demo', location: '/srv/demo', commit: pinned, image: imageRecipeSchema.parse({}), thresholds: thresholdsSchema.parse({}), limits: limitsSchema.parse({}),
};

describe("the images ssr mine judges commits in", () => {
  it("are the run's own when it removes them (so never another clone's shared image), the pinned commit's always the shared one", () => {
    const removing = { repo, imageScope: 'ssr mine --out /runs/a' };
    const shared = repoImageTag({ ...repo, commit: older });
    // Removed after judging: a tag of this run's own, and another --out gets another.
    expect(repoImageTag(judgedRepo(removing, older))).not.toBe(shared);
    expect(repoImageTag(judgedRepo(removing, older))).not.toBe(repoImageTag(judgedRepo({ repo, imageScope: 'ssr mine --out /runs/b' }, older)));
    // Kept (--keep-images, no scope) or the pinned commit's: the image every clone shares by content.
    expect(repoImageTag(judgedRepo({ repo }, older))).toBe(shared);
    expect(repoImageTag(judgedRepo(removing, pinned))).toBe(repoImageTag(repo));
    expect(judgedRepo(removing, older)).toMatchObject({ id: 'demo', commit: older });
  });
});
