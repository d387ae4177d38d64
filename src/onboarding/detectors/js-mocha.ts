import { jsDetector } from './js-detector.js';

/** Mocha: `mocha` in scripts.test, a .mocharc.*, a "mocha" key in package.json, or the mocha package. */
export const jsMocha = jsDetector({ runner: 'mocha', configFiles: /^\.mocharc\.(js|cjs|mjs|json|jsonc|yml|yaml)$/, packageKey: 'mocha', dependency: 'mocha', defaultCommand: 'npx mocha' });
