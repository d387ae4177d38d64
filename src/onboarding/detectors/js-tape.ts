import { jsDetector } from './js-detector.js';

/** tape: `tape` in scripts.test or the tape package (it has no config file). */
export const jsTape = jsDetector({ runner: 'tape', dependency: 'tape', defaultCommand: 'npx tape test/*.js' });
