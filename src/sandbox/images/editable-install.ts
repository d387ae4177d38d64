/**
 * A `pip` / `uv` step that installs the repo itself (`.`, `./`, `/repo`, with or without extras)
 * would copy its code into the interpreter's site-packages (and a `build/lib/` beside it): a
 * pristine copy of every file a bug later changes, one `diff` away from the Solver. ssr installs
 * the repo editable instead (`-e .`): site-packages then points at /repo, so there is one copy of
 * the code, the one under test.
 */

/** The repo's own directory as an install target, optionally quoted, optionally with extras. */
const REPO_TARGET = /^(['"]?)(\.|\.\/|\/repo|\/repo\/)(\[[^\]\s'"]*\])?\1$/;
const EDITABLE_FLAGS = new Set(['-e', '--editable']);

/** The list form: each word one argument. */
function editableWords(words: readonly string[]): string[] {
  const out: string[] = [];
  words.forEach((word, index) => {
    const flagged = index > 0 && EDITABLE_FLAGS.has(words[index - 1]!);
    if (!flagged && REPO_TARGET.test(word)) out.push('-e');
    out.push(word);
  });
  return out;
}

/**
 * The install arguments with every bare target that is the repo itself made editable; `changed`
 * says whether any was. A string is split on whitespace (shell words of a repos.yaml line; a quoted
 * target keeps its quotes) and joined back with single spaces.
 */
export function editableRepoInstall(args: string | readonly string[]): { args: string | string[]; changed: boolean } {
  if (typeof args !== 'string') {
    const words = editableWords(args);
    return { args: words, changed: words.length !== args.length };
  }
  const words = args.trim().split(/\s+/);
  const edited = editableWords(words);
  return edited.length === words.length ? { args, changed: false } : { args: edited.join(' '), changed: true };
}
