import { z } from 'zod';
import { applyEdit } from './line-match.js';
import { numberedSnippet } from './numbered-snippet.js';
import { describeKind, overwriteFile, probePaths, resolvePath, type ProbedPath } from './sandbox-paths.js';
import { toolError, toolOk, type Tool } from './tool.js';

export const editArgsSchema = z.object({
  path: z.string().min(1).describe('File to edit: relative to /repo, or absolute.'),
  search: z
    .string()
    .describe('One or more complete lines copied exactly from the file (indentation included). Must occur exactly once.'),
  replace: z.string().describe('The lines that take their place (empty to delete them).'),
});
export type EditArgs = z.infer<typeof editArgsSchema>;

/** `edit`: one search/replace block on whole lines (method §8). */
export const editTool: Tool<EditArgs> = {
  name: 'edit',
  description:
    'Replace one block of whole lines in an existing file. `search` must match complete lines of the file exactly ' +
    '(same indentation) and occur exactly once; include surrounding lines to make it unique. ' +
    'On success, shows the changed region with line numbers.',
  schema: editArgsSchema,
  async run({ path, search, replace }, { sandbox }) {
    const absolute = resolvePath(path);
    const [{ kind, resolved }] = (await probePaths(sandbox, [absolute])) as [ProbedPath];
    const problem = describeKind(kind);
    if (problem) {
      const suggestion = kind === 'missing' ? ' Use `create` for a new file.' : '';
      return toolError(`Cannot edit ${absolute}: it ${problem}.${suggestion}`);
    }
    const bytes = await sandbox.readFile(resolved);
    const text = bytes.toString('utf8');
    if (text.includes('\0') || !Buffer.from(text, 'utf8').equals(bytes)) {
      return toolError(`Cannot edit ${absolute}: it is not UTF-8 text.`);
    }
    const outcome = applyEdit(text, search, replace);
    switch (outcome.status) {
      case 'empty-search':
        return toolError('`search` is empty: give the exact lines to replace.');
      case 'unchanged':
        return toolError('`replace` is identical to `search`: nothing to change.');
      case 'multiple':
        return toolError(
          `\`search\` matches ${outcome.lines.length} times in ${absolute} (starting at lines ${outcome.lines.join(', ')}); ` +
            'include more surrounding lines so it matches exactly once.',
        );
      case 'no-match':
        return toolError(`No match for \`search\` in ${absolute}: ${outcome.hint}`);
      case 'edited': {
        const failure = await overwriteFile(sandbox, absolute, outcome.text);
        if (failure) return toolError(`Cannot write ${absolute}: ${failure}`);
        const added = outcome.end - outcome.start + 1;
        return toolOk(
          `Edited ${absolute}: replaced ${outcome.removed} line(s) with ${added} at line ${outcome.start}.\n` +
            numberedSnippet(outcome.lines, outcome.start, outcome.end),
        );
      }
    }
  },
};
