import { z } from 'zod';

/**
 * The JavaScript / TypeScript test runners ssr has a test script and a parser for: a repos.yaml
 * value, so it lives with the schema; harness/js-test-files.ts maps each to its files.
 */
export const jsRunnerSchema = z.enum(['jest', 'vitest', 'mocha', 'node-test', 'tape', 'node-tap']);
export type JsRunner = z.infer<typeof jsRunnerSchema>;
