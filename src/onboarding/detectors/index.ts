import type { Detector } from './detector.js';
import { jsJest } from './js-jest.js';
import { jsMocha } from './js-mocha.js';
import { jsNodeTap } from './js-node-tap.js';
import { jsNodeTest } from './js-node-test.js';
import { jsTape } from './js-tape.js';
import { jsUnknownRunner } from './js-unknown-runner.js';
import { jsVitest } from './js-vitest.js';
import { pythonDoctest } from './python-doctest.js';
import { pythonPytest } from './python-pytest.js';
import { pythonUnittest } from './python-unittest.js';

/**
 * Every test-runner detector, in the order they are tried within a language (the first that
 * answers wins). Another language adds its detectors here and its extensions in `languages.ts`.
 * The JS ones defer to scripts.test when it names a runner, so their order only matters when
 * it does not; the unknown-runner one comes last.
 */
export const detectors: readonly Detector[] = [
  pythonPytest,
  pythonUnittest,
  pythonDoctest,
  jsJest,
  jsVitest,
  jsMocha,
  jsTape,
  jsNodeTap,
  jsNodeTest,
  jsUnknownRunner,
];
