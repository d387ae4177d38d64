import { posix } from 'node:path';
import type { LeakKind } from './leak-flag.js';

// The data `scanLeaks` judges by: what counts as reaching for each kind of leak.

/** git subcommands that read history or objects (the wiped repo has one commit: asking is the attempt). */
export const HISTORY_SUBCOMMANDS = new Set([
  'log', 'show', 'reflog', 'fsck', 'cat-file', 'rev-list', 'ls-tree', 'blame', 'annotate', 'whatchanged', 'shortlog',
  'unpack-objects', 'verify-pack', 'show-ref', 'for-each-ref', 'count-objects', 'bisect', 'describe', 'name-rev',
]);
/** git subcommands that talk to another repository. */
export const NETWORK_GIT_SUBCOMMANDS = new Set(['clone', 'fetch', 'pull', 'ls-remote', 'remote', 'submodule', 'archive']);
export const NETWORK_PROGRAMS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'telnet', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'socat', 'aria2c', 'http', 'lynx']);
/** program → subcommands that fetch packages (an empty set: any use). */
export const PACKAGE_COMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['pip', new Set(['install', 'download', 'wheel'])],
  ['apt', new Set(['install', 'update', 'download', 'source'])],
  ['apt-get', new Set(['install', 'update', 'download', 'source'])],
  ['npm', new Set(['install', 'i', 'add', 'ci'])],
  ['yarn', new Set(['add', 'install'])],
  ['pnpm', new Set(['add', 'install', 'i'])],
  ['conda', new Set(['install', 'create'])],
  ['poetry', new Set(['add', 'install'])],
  ['gem', new Set(['install'])],
  ['cargo', new Set(['install'])],
  ['easy_install', new Set()],
  ['pipx', new Set(['install', 'run'])],
]);
/** Python code that opens a connection (checked only where a command runs Python). */
export const PYTHON_NETWORK = /\bimport\s+(?:socket|urllib|requests|http\.client|httpx|aiohttp|ftplib)\b|\bfrom\s+(?:socket|urllib|requests|http|httpx|aiohttp|ftplib)\b[\w.]*\s+import\b|\burlopen\s*\(|\bsocket\.(?:socket|create_connection)\b|\brequests\.(?:get|post|put|head)\s*\(/;

/** Text patterns, wherever they occur in a command or a path (boundaries keep look-alikes out). */
export const TEXT_RULES: ReadonlyArray<{ kind: LeakKind; pattern: RegExp; what: string }> = [
  { kind: 'history', pattern: /(?:^|[^\w-])\.git\/(?:objects|refs|logs|packed-refs|ORIG_HEAD|FETCH_HEAD)\b/, what: 'git objects, refs or logs' },
  { kind: 'artifact', pattern: /\b(?:bug_inject|test_weaken)\.diff\b/, what: 'an artifact diff' },
  // test_script.sh / test_parser.py / test_files.txt may also be a repo's own files: only a bare
  // name (a search for it) or one under the scratch dir counts, never `tests/test_parser.py`.
  { kind: 'artifact', pattern: /(?:^|[\s'"=<>:])(?:\/ssr\/(?:[\w.-]+\/)*)?(?:test_script\.sh|test_parser\.py|test_files\.txt)(?=$|[\s'";|&)<>])/, what: 'an artifact file' },
  { kind: 'artifact', pattern: /(?:^|[\s'"=<>:])\/ssr(?:\/artifact\b[^\s'";|&)]*|\/?(?=$|[\s'";|&)<>*]))/, what: 'the scratch dir where the artifact was' },
  { kind: 'outside-repo', pattern: /\/proc\/[^/\s]+\/(?:environ|cmdline|maps|mem|root|cwd|fd)\b/, what: "another process's environment or files" },
  { kind: 'outside-repo', pattern: /(?:^|[\s'"=<>:])(?:\/root|\/home|~)(?:\/|(?=$|[\s'";|&)<>]))/, what: 'a home directory' },
  { kind: 'outside-repo', pattern: /\/etc\/(?:shadow|passwd|sudoers)\b|docker\.sock\b|\/var\/run\/secrets\b/, what: 'host secrets' },
  { kind: 'outside-repo', pattern: /(?:^|[\s'"=<>:])(?:\/repo\/\.\.|\.\.\/\.\.)(?:\/|(?=$|[\s'";|&)<>]))/, what: 'a path above the repo' },
  { kind: 'network', pattern: /\/dev\/(?:tcp|udp)\//, what: 'a bash network socket' },
];

/** Where a Solver may write with `edit`/`create`: the repo, its scratch dir, /tmp. */
const ALLOWED_ROOTS = ['/repo', '/ssr', '/tmp'];

/** Whether an edit/create path (relative to /repo, or absolute) lands outside every allowed root. */
export function outsideAllowedRoots(path: string): boolean {
  const resolved = posix.resolve('/repo', path);
  return !ALLOWED_ROOTS.some((root) => resolved === root || resolved.startsWith(`${root}/`));
}
