import { jsDetector } from './js-detector.js';

/** Vitest: `vitest` in scripts.test, a vitest.config.* (or vitest.workspace.*), or the vitest package. */
export const jsVitest = jsDetector({ runner: 'vitest', configFiles: /^vitest\.(config|workspace)\.(js|cjs|mjs|ts|cts|mts|json)$/, dependency: 'vitest', defaultCommand: 'npx vitest run' });
