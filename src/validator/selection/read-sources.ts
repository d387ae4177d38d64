import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { EngineError } from '../../util/engine-error.js';
import { execMustSucceed } from '../../workspace/exec-checked.js';

/** Prints every tracked Python file of the repo as one JSON object, path → source. */
const DUMP = `import json, subprocess, sys
paths = subprocess.run(["git", "ls-files", "-z", "--", "*.py"], check=True, stdout=subprocess.PIPE).stdout.decode("utf-8", "replace").split("\\0")
out = {}
for path in filter(None, paths):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            out[path] = handle.read()
    except OSError:
        pass
json.dump(out, sys.stdout)`;

/** The sources of every Python file of O, read in a throwaway sandbox (the import graph's input). */
export async function readPythonSources(provider: SandboxProvider, template: SandboxTemplate): Promise<ReadonlyMap<string, string>> {
  const sandbox = await provider.acquire(template);
  try {
    const result = await execMustSucceed(sandbox, 'reading the Python sources', `python3 -c '${DUMP.replaceAll("'", "'\\''")}' 2>/dev/null`, { maxOutputBytes: 64 * 1024 * 1024 });
    try {
      return new Map(Object.entries(JSON.parse(result.output) as Record<string, string>));
    } catch (error) {
      throw new EngineError('sandbox-failed', `reading the Python sources: not JSON (${(error as Error).message})`);
    }
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
