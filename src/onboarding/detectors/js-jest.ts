import { jsDetector } from './js-detector.js';

/** Jest: `jest` in scripts.test, a jest.config.*, a "jest" key in package.json, or the jest package. */
export const jsJest = jsDetector({ runner: 'jest', configFiles: /^jest\.config\.(js|cjs|mjs|ts|cts|mts|json)$/, packageKey: 'jest', dependency: 'jest', defaultCommand: 'npx jest' });
