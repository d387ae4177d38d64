import { prepareExampleImages, prepareSharedImages } from './shared-images.js';

/** The file filters of this vitest run (`vitest run test/unit/x.test.ts` → ['test/unit/x.test.ts']). */
function fileFilters(): string[] {
  return process.argv.slice(2).filter((arg) => !arg.startsWith('-') && arg !== 'run' && arg !== 'watch');
}

/** `vitest run test/unit/...` needs no images: do not make unit runs wait for (or need) Docker. */
function onlyUnitTests(): boolean {
  const filters = fileFilters();
  return filters.length > 0 && filters.every((filter) => /^(\.\/)?test\/unit\b/.test(filter));
}

/**
 * Builds what the integration tests share once, before any test worker starts (test/shared-images.ts):
 * the example repo's image and bwrap template; on a whole-suite run, the other base images (Node
 * with the JS examples, pip) too, at the same time — unless scripts/test is building those in the
 * background already (SSR_TEST_EXTRA_IMAGES=background): the tests that need them then wait on
 * the build's lock while the others run. Workers then find them cached.
 */
export default async function setup(): Promise<void> {
  if (onlyUnitTests()) return;
  const extra = fileFilters().length === 0 && process.env.SSR_TEST_EXTRA_IMAGES !== 'background';
  await (extra ? prepareSharedImages() : prepareExampleImages());
}
