import { posix } from 'node:path';
import { z } from 'zod';
import type { Sandbox } from '../sandbox/sandbox.js';
import { describeKind, probePaths, resolvePath } from './sandbox-paths.js';
import type { Submission } from './submission.js';
import { toolError, type Tool, type ToolResult } from './tool.js';

const pathArg = (what: string) => z.string().min(1).describe(`Path of ${what} (relative to /repo, or absolute).`);

export const injectorSubmitArgsSchema = z.object({
  bug_inject: pathArg('bug_inject.diff, the diff that introduces the bug (code files only)'),
  test_weaken: pathArg('test_weaken.diff, the diff that weakens or removes tests to hide the bug (test files only)'),
  test_files: pathArg('test_files.txt, the oracle test files, one path a line'),
  test_script: pathArg('test_script.sh, the script that runs those tests'),
  test_parser: pathArg('test_parser.py, which reads the test log on stdin and prints JSON {test id: "passed" | "failed"}'),
});
export type InjectorSubmitArgs = z.infer<typeof injectorSubmitArgsSchema>;

export const solverSubmitArgsSchema = z.object({
  patch: pathArg('your fix as a unified diff (e.g. written with `git diff > /ssr/pred_patch.diff`)'),
});
export type SolverSubmitArgs = z.infer<typeof solverSubmitArgsSchema>;

const AGAIN = 'You may call `submit` again to replace it (the last submission counts). If you are done, reply with a short summary and no tool call.';

/**
 * Read every named file from the sandbox. Missing or unreadable paths are one error result naming
 * them all, so the model fixes everything in one go.
 */
async function readAll<K extends string>(
  sandbox: Sandbox,
  paths: Record<K, string>,
): Promise<{ ok: true; files: Record<K, string> } | { ok: false; result: ToolResult }> {
  const keys = Object.keys(paths) as K[];
  const absolute = keys.map((k) => resolvePath(paths[k]));
  const probed = await probePaths(sandbox, absolute);
  const bad = keys.flatMap((k, i) => {
    const problem = describeKind(probed[i]!.kind);
    return problem ? [`${k}: ${absolute[i]} ${problem}`] : [];
  });
  if (bad.length > 0) return { ok: false, result: toolError(`Nothing submitted; fix these paths and call submit again:\n${bad.join('\n')}`) };
  const contents = await Promise.all(probed.map(async (p) => (await sandbox.readFile(p.resolved)).toString('utf8')));
  return { ok: true, files: Object.fromEntries(keys.map((k, i) => [k, contents[i]!])) as Record<K, string> };
}

const MAX_NOTES_BYTES = 64 * 1024;

/** The optional metadata.json beside bug_inject.diff, when it is a small JSON object; else nothing. */
async function readNotes(sandbox: Sandbox, path: string): Promise<Record<string, unknown> | undefined> {
  const [probe] = await probePaths(sandbox, [path]);
  if (!probe || describeKind(probe.kind) !== null) return undefined;
  const bytes = await sandbox.readFile(probe.resolved);
  if (bytes.length > MAX_NOTES_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function accepted(submission: Submission, sizes: Record<string, string>): ToolResult {
  const empty = Object.entries(sizes).filter(([, content]) => content.trim() === '').map(([k]) => k);
  const warning = empty.length > 0 ? `\nWarning: empty file(s): ${empty.join(', ')}.` : '';
  return { output: `Submission recorded.${warning}\n${AGAIN}`, isError: false, submission };
}

/** Injector `submit`: the five artifact files of method §2. */
export const injectorSubmitTool: Tool<InjectorSubmitArgs> = {
  name: 'submit',
  description:
    'Submit the bug artifact: paths of the five files bug_inject.diff, test_weaken.diff, test_files.txt, ' +
    'test_script.sh and test_parser.py. The files are read when you call this; later changes to them do not count.',
  schema: injectorSubmitArgsSchema,
  async run(args, { sandbox }) {
    const read = await readAll(sandbox, args);
    if (!read.ok) return read.result;
    const { files } = read;
    const metadata = await readNotes(sandbox, posix.join(posix.dirname(resolvePath(args.bug_inject)), 'metadata.json'));
    const submission: Submission = {
      type: 'injector',
      bugInject: files.bug_inject,
      testWeaken: files.test_weaken,
      testFiles: files.test_files,
      testScript: files.test_script,
      testParser: files.test_parser,
      ...(metadata ? { metadata } : {}),
    };
    return accepted(submission, files);
  },
};

/** Solver `submit`: a path to the repair diff. */
export const solverSubmitTool: Tool<SolverSubmitArgs> = {
  name: 'submit',
  description:
    'Submit your fix: the path of a unified diff of your changes to the repository (e.g. `git diff > /ssr/pred_patch.diff`). ' +
    'The file is read when you call this; later changes do not count.',
  schema: solverSubmitArgsSchema,
  async run(args, { sandbox }) {
    const read = await readAll(sandbox, args);
    if (!read.ok) return read.result;
    return accepted({ type: 'solver', patch: read.files.patch }, read.files);
  },
};
