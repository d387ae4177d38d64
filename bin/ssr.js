#!/usr/bin/env node
// Runs the compiled CLI; `npm install` builds it (the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const compiled = join(root, 'dist', 'src', 'cli', 'main.js');
if (!existsSync(compiled)) {
  console.error(`ssr: ${compiled} is missing; run \`npm run build\` in ${root} first`);
  process.exit(2);
}
await import(pathToFileURL(compiled).href);
