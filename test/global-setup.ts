import { prepareSharedImages } from './shared-images.js';

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
 * the example repo's image and bwrap template; on a whole-suite run, the JS examples' images and
 * the base image with pip too, at the same time. Workers then find them cached.
 * A backend that is not usable here is not built; the tests that need it fail with that reason.
 */
export default async function setup(): Promise<void> {
  if (onlyUnitTests()) return;
  await prepareSharedImages(fileFilters().length === 0);
}
