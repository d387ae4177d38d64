import { few, filesMatching } from './python-files.js';
import { jsDetector } from './js-detector.js';

const JS_SOURCE = /\.(js|mjs|cjs|ts|mts|cts)$/;
const IMPORTS_NODE_TEST = /(from\s+|require\(\s*)['"]node:test['"]/;

/** node:test: `node --test` in scripts.test, or test files that import node:test (Node's built-in runner needs no package). */
export const jsNodeTest = jsDetector({
  runner: 'node-test',
  defaultCommand: 'node --test',
  async moreEvidence(files) {
    const sources = files.paths.filter((path) => JS_SOURCE.test(path) && !path.startsWith('node_modules/'));
    const users = await filesMatching(files, sources, IMPORTS_NODE_TEST);
    return users.length > 0 ? [`node:test imported by ${few(users)}`] : [];
  },
});
