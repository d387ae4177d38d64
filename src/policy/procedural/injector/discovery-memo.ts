import { bash, type Steps } from '../program.js';
import { heredoc, TEST_MAP, BASELINE_JSON, WORK_DIR } from './injector-commands.js';
import type { TestSuite } from './test-suite.js';

/**
 * Discovery's runs, kept for the next episodes on the same tree: every Injector episode of a repo
 * starts from the same sandbox of O, so its clean run and traced run come out the same (the
 * golden gate quarantined flaky tests before any episode). The first episode to finish them keeps
 * what the later steps read back: the clean and traced runs' printed summaries, and o.json and
 * the test map as a base64 tar.gz read out of its sandbox in pages; a later episode writes those
 * two files into its own sandbox in one command instead of running the suite twice. An episode
 * that starts while another is discovering the same tree waits for it (see sharedDiscovery).
 */
export interface DiscoveryMemo {
  suite: TestSuite;
  /** What the clean run printed (its `@@run` / `@@group` / `@@ms` lines: the baseline summary). */
  cleanText: string;
  /** What the traced run printed; null when none was wanted. */
  traceText: string | null;
  /** o.json and (when traced) tcov.txt, as base64 of a tar.gz. */
  blob: string;
}

/** Memos of one policy, by {@link memoKey}; episodes only ever add to it. */
export type DiscoveryMemos = Map<string, unknown>;

/**
 * Prints `@@tree <commit> <hash>`: the checked-out commit and a hash of the work tree's changes and
 * of the interpreters, so a memo is reused only on the same code in the same environment.
 */
export const TREE_KEY_COMMAND =
  'cd /repo && echo "@@tree $(git rev-parse HEAD 2>/dev/null) $( { git status --porcelain; python3 --version; node --version; } 2>&1 | md5sum | cut -c1-16)"';

/** The packed runs in the sandbox (base64 of a tar.gz of o.json and the test map). */
export const MEMO_FILE = `${WORK_DIR}/discovery.b64`;

/** Base64 characters read back per page (the tool's output cap is 16 KiB). */
export const PAGE_CHARS = 16_000;
/** Pages read back at most: each costs a turn, so a map larger than this is not kept. */
export const MAX_PAGES = 16;

/** The memo key of an episode's discovery, or null when the listing printed no tree line. */
export function memoKey(listing: string, settings: { runner: string; coverage: boolean; maxRunS: number }): string | null {
  const tree = /^@@tree ([0-9a-f]{40}) ([0-9a-f]{16})$/m.exec(listing);
  return tree ? `${tree[1]} ${tree[2]} ${settings.runner} coverage=${settings.coverage} max=${settings.maxRunS}` : null;
}

/** The memo under `key`, when there is one. */
export function memoOf(memos: DiscoveryMemos | undefined, key: string | null): DiscoveryMemo | null {
  const memo = key === null ? undefined : memos?.get(key);
  return (memo as DiscoveryMemo | undefined) ?? null;
}

/** Write a memo's o.json and test map into this sandbox; false when that failed (then discover afresh). */
export async function* restoreDiscovery(memo: DiscoveryMemo): Steps<boolean> {
  const b64 = MEMO_FILE;
  const command = [heredoc(b64, memo.blob), `cd ${WORK_DIR} && base64 -d ${b64} | tar xzf - && echo '@@restored'`].join('\n');
  const restored = yield bash(command, 'Put back the clean run and test map an earlier episode of this repo recorded (same commit, same environment).');
  return restored.ok && restored.text.includes('@@restored');
}

/**
 * Read this sandbox's o.json and test map back (base64 of a tar.gz, in pages) and keep them with
 * the runs' summaries under `key`; nothing is kept when they are too large, or did not come back whole.
 */
export async function* saveDiscovery(memos: DiscoveryMemos, key: string, memo: Omit<DiscoveryMemo, 'blob'>): Steps<void> {
  const b64 = MEMO_FILE;
  const files = [BASELINE_JSON, ...(memo.traceText === null ? [] : [TEST_MAP])].map((path) => path.slice(WORK_DIR.length + 1));
  const packed = yield bash(`cd ${WORK_DIR} && tar czf - ${files.join(' ')} | base64 -w0 > ${b64} && echo "@@b64 $(wc -c < ${b64})"`, 'Pack the clean run and test map, so later episodes of this repo need not run them again.');
  const size = Number(/^@@b64 (\d+)$/m.exec(packed.text)?.[1] ?? NaN);
  if (!packed.ok || !Number.isInteger(size) || size === 0 || size > PAGE_CHARS * MAX_PAGES) return;
  let blob = '';
  for (let from = 1; from <= size; from += PAGE_CHARS) {
    const page = yield bash(`echo "@@page $(cut -c ${from}-${from + PAGE_CHARS - 1} ${b64})"`, `Read the packed runs back (from character ${from}).`);
    const text = /^@@page ([A-Za-z0-9+/=]*)$/m.exec(page.text)?.[1];
    if (!page.ok || text === undefined) return;
    blob += text;
  }
  if (blob.length === size && !memos.has(key)) memos.set(key, { ...memo, blob });
}
