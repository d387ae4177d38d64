import { posix } from 'node:path';
import { z } from 'zod';
import { REPO_DIR } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { shellQuote } from '../util/shell-quote.js';
import { resolvePath } from './sandbox-paths.js';
import { toolError, toolOk, type Tool } from './tool.js';

export const createArgsSchema = z.object({
  path: z.string().min(1).describe('New file: relative to /repo, or absolute. Its directory must already exist.'),
  content: z.string().describe('The whole content of the file.'),
});
export type CreateArgs = z.infer<typeof createArgsSchema>;

// Status words the script prints last; anything else is the shell's own complaint.
const EXISTS = '__ssr_exists__';
const NO_PARENT = '__ssr_no_parent__';
const CREATED = '__ssr_created__';

/** `create`: a new file only; never overwrites, never makes directories (method §8). */
export const createTool: Tool<CreateArgs> = {
  name: 'create',
  description:
    'Create a new file with the given content. Fails if the file already exists (use `edit` to change it) ' +
    "or if its directory does not exist (make it first with `bash`, e.g. `mkdir -p`).",
  schema: createArgsSchema,
  async run({ path, content }, { sandbox }) {
    const absolute = resolvePath(path);
    const parent = posix.dirname(absolute);
    const [p, d] = [shellQuote(absolute), shellQuote(parent)];
    // One round trip; noclobber (set -C) makes the final write refuse a file that appeared meanwhile.
    const script =
      `if [ -e ${p} ] || [ -L ${p} ]; then echo ${EXISTS}; elif [ ! -d ${d} ]; then echo ${NO_PARENT}; ` +
      `else set -C; cat > ${p} && echo ${CREATED}; fi`;
    const result = await sandbox.exec(script, { stdin: content, timeoutMs: 60_000, cwd: REPO_DIR });
    if (result.timedOut) throw new EngineError('sandbox-failed', `creating ${absolute} in sandbox ${sandbox.id} timed out`, { retryable: true });
    const said = result.output.trim();
    if (said.endsWith(CREATED)) {
      const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
      return toolOk(`Created ${absolute} (${lines} line(s)).`);
    }
    if (said === EXISTS) return toolError(`Cannot create ${absolute}: it already exists. Use \`edit\` to change it.`);
    if (said === NO_PARENT) {
      return toolError(`Cannot create ${absolute}: directory ${parent} does not exist. Create it first (\`mkdir -p ${parent}\`).`);
    }
    return toolError(`Cannot create ${absolute}: ${said || `exit code ${result.exitCode}`}`);
  },
};
