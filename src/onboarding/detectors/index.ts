import type { Detector } from './detector.js';
import { pythonDoctest } from './python-doctest.js';
import { pythonPytest } from './python-pytest.js';
import { pythonUnittest } from './python-unittest.js';

/**
 * Every test-runner detector, in the order they are tried within a language (the first that
 * answers wins). Another language adds its detectors here and its extensions in `languages.ts`.
 */
export const detectors: readonly Detector[] = [pythonPytest, pythonUnittest, pythonDoctest];
