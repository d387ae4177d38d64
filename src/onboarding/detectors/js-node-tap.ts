import { jsDetector } from './js-detector.js';

/** node-tap: `tap` in scripts.test, a .taprc, or the tap package. */
export const jsNodeTap = jsDetector({ runner: 'node-tap', configFiles: /^\.taprc$/, packageKey: 'tap', dependency: 'tap', defaultCommand: 'npx tap' });
