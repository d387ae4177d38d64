import { SCRATCH_DIR } from '../sandbox/sandbox.js';
import { GUARD_SUPERVISOR_MODULE } from './guard-setup.js';
import { PREPARE_FILES, PREPARE_SNIPPET } from './prepare-steps.js';
import { reportCollectSnippet, reportFifoSnippet } from './report-fifo.js';
import { materialCheckSnippet, materialLockSnippet, materialSectionSnippet, readMaterialSection, type MaterialReport } from './test-material.js';

/** The artifact's names inside the sandbox are a contract (method §2). */
export const TEST_FILES = {
  script: `${SCRATCH_DIR}/test_script.sh`,
  parser: `${SCRATCH_DIR}/test_parser.py`,
  log: `${SCRATCH_DIR}/test.log`,
  parserOut: `${SCRATCH_DIR}/parser.out`,
  parserErr: `${SCRATCH_DIR}/parser.err`,
} as const;

/** Guard records the driver ships back at most, and the size of each (a few MiB is 100k tests). */
export const GUARD_MAX_RECORDS = 8;
export const GUARD_RECORD_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The bash program that does a whole test run in ONE sandbox exec: unpack the script and parser
 * (base64 lines on stdin, so they never touch argv), bring the repository to the state to test
 * (the `prep_n` steps of prepare-steps.ts; it stops there when one fails), run the script under its own time limit,
 * then the parser on the log, and print what the host needs as base64 lines. Every exec is a
 * round trip to the engine; one instead of seven is most of the harness's overhead gone.
 *
 * Output (stdout; the driver's own stderr goes to a file so nothing can corrupt it):
 *   SSR-RESULT <script exit> <script timed out 0|1> <script ns> <parser exit> <parser timed out 0|1> <parser ns> <log bytes> <parser stdout bytes>
 *   <parser stdout, base64, or empty when over the cap>
 *   <log head, base64>
 *   <log tail, base64, or empty when the head is the whole log>
 *   <parser stderr tail, base64, or empty when the parser exited 0>
 *   SSR-REPARSE <parser exit> <timed out 0|1> <parser ns> <stdout bytes>   (or `SSR-REPARSE -`)
 *   <second parser stdout, base64, or empty>
 *   <second parser stderr tail, base64, or empty>
 *   SSR-GUARD <records found> <records shipped>   (or `SSR-GUARD -` without a guard)
 *   <one guard session record per line, base64>
 * The second parse of the same log (asked for with reparse=1, done only on a real log: the script
 * finished and printed something) is how the validator checks that a parser is deterministic.
 *
 * With fifo=1 (9th argument, see report-fifo.ts's offersReportFifo) a guarded run offers the JS report FIFO.
 * With guard=1 (8th argument; a line `<dir> <key> <the guard's folder as a tar, base64>` follows the parser on
 * stdin, see guard-setup.ts; one `tar` unpacks it, GNU or busybox, else Python's tarfile) the script runs hardened, so that repo files can neither replace the
 * runner nor forge what grading reads (method §4, docs/grading.md): the guard's modules (guard/) are written
 * to a random folder outside /repo, which is both on PYTHONPATH and the only user site
 * (PYTHONUSERBASE: ~/.local is never read), so a script that sets its own PYTHONPATH still gets
 * it; the start-up half asks pytest processes only to load the plugin ("-p"), after installing the
 * audit hook. The test material is locked and hashed (test-material.ts; as `nobody` where the
 * driver is root). The script runs under the supervisor (guard/ssr_guard_supervisor.py), which
 * takes the key on its stdin, receives the guard's stream, kills every process the tests left
 * behind once the script is over (before anything is read or checked), and writes the signed
 * session records that come back in the SSR-GUARD section; the SSR-MATERIAL section says what of
 * the material changed. The log goes to the random folder too (mode 0600), so repo code cannot
 * find the file the parser reads by a fixed name, nor read it back. No bytecode written into the repo, no PYTHONSTARTUP or PYTHONINSPECT.
 * For a runner other than pytest the same environment and lock apply but no guard records exist:
 * what protects those runs is the patch sanitiser, the lock and the random log path.
 */
export const TEST_DRIVER = `
set -u
exec 2>${TEST_FILES.log}.driver-err
script_s="$1"; parser_s="$2"; max_out="$3"; half_log="$4"; err_tail="$5"; reparse="$6"; prep_n="\${7:-0}"; guard="\${8:-0}"; fifo="\${9:-0}"
IFS= read -r script_b64; IFS= read -r parser_b64
if [ "$guard" = 1 ]; then IFS=' ' read -r g_dir g_key g_tar; fi
mkdir -p ${SCRATCH_DIR} \${g_dir:+"$g_dir"}
${PREPARE_SNIPPET}
base64 -d <<< "$script_b64" > ${TEST_FILES.script}
base64 -d <<< "$parser_b64" > ${TEST_FILES.parser}
log_f=${TEST_FILES.log}
run_env=(env); run_as=(); sup=()
if [ "$guard" = 1 ]; then
  if command -v tar > /dev/null; then base64 -d <<< "$g_tar" | tar -xof - -C "$g_dir"
  else base64 -d <<< "$g_tar" | python3 -c 'import sys, tarfile; tarfile.open(fileobj=sys.stdin.buffer, mode="r|").extractall(sys.argv[1])' "$g_dir"; fi
  # -I -S: no site scan and no PYTHON* variables of the image for the interpreter that holds the key.
  sup=(python3 -I -S "$g_dir/s/${GUARD_SUPERVISOR_MODULE}.py" "$g_dir/o")
  # The log is the driver's alone (mode 0600): the tests write to it through the stdout they are
  # given, never read it back (a runner's nonce, declared in it at the end, must stay unseen).
  log_f="$g_dir/test.log"; (umask 077; : > "$log_f")
  run_env=(env -u PYTHONSTARTUP -u PYTHONINSPECT -u PYTHONNOUSERSITE PYTHONDONTWRITEBYTECODE=1 "PYTHONUSERBASE=$g_dir/u"
    "PYTHONPATH=$g_dir/p\${PYTHONPATH:+:$PYTHONPATH}" "SSR_GUARD_CONF=$g_dir/conf")
${materialLockSnippet()}
${reportFifoSnippet()}
fi
rm -f ${TEST_FILES.log} ${TEST_FILES.parserOut} ${TEST_FILES.parserErr} /ssr/timeout.msg ${PREPARE_FILES.join(' ')}
# Bash 5's clock where there is one: a date command per reading was four process starts per run.
now() { if [ -n "\${EPOCHREALTIME:-}" ]; then t_now="\${EPOCHREALTIME/[.,]/}000"; else t_now=$(date +%s%N); fi; }
now; t0=$t_now
\${sup[@]+"\${sup[@]}"} timeout --verbose -s KILL "$script_s" "\${run_env[@]}" bash -c 's=$0; f=$1; shift; exec "$@" bash "$s" > "$f" 2>&1 < /dev/null' ${TEST_FILES.script} "$log_f" \${run_as[@]+"\${run_as[@]}"} 2> /ssr/timeout.msg <<< "\${g_key:-}"
sc=$?; now; t1=$t_now
if [ "$guard" = 1 ]; then ${reportCollectSnippet()}
${materialCheckSnippet()}
fi
st=0; [ -s /ssr/timeout.msg ] && st=1
parse() { # $1: stdout file, $2: stderr file; sets pc, pt, pns
  local t; now; t=$t_now
  # No shell between timeout and the parser: killed (137, or busybox's 124) once its limit has
  # passed is a timeout; a SIGKILL of its own before the limit is a crash.
  timeout -s KILL "$parser_s" python3 ${TEST_FILES.parser} < "$log_f" > "$1" 2> "$2"
  pc=$?; now; pns=$(( t_now - t ))
  pt=0; if [ "$pc" = 137 ] || [ "$pc" = 124 ]; then [ "$pns" -ge $(( parser_s * 1000000000 )) ] && pt=1; fi
}
parse ${TEST_FILES.parserOut} ${TEST_FILES.parserErr}
# One stat for the parser's output, the log and the guard's records (it was one start each).
g_files=(); g_total=0
if [ "$guard" = 1 ]; then
  for f in "$g_dir"/o/*; do [ -e "$f" ] || continue; g_total=$((g_total + 1)); [ -f "$f" ] && [ ! -L "$f" ] && g_files+=("$f"); done
fi
sized=(${TEST_FILES.parserOut} "$log_f" \${g_files[@]+"\${g_files[@]}"})
sizes=($(stat -c %s -- "\${sized[@]}" 2>/dev/null))
if [ "\${#sizes[@]}" -ne "\${#sized[@]}" ]; then # a file went missing: one by one, 0 for it
  sizes=(); for f in "\${sized[@]}"; do sizes+=("$(stat -c %s -- "$f" 2>/dev/null || echo 0)"); done
fi
out=\${sizes[0]}; log=\${sizes[1]}
echo "SSR-RESULT $sc $st $((t1 - t0)) $pc $pt $pns $log $out"
if [ "$out" -le "$max_out" ]; then base64 -w0 ${TEST_FILES.parserOut}; fi; echo
if [ "$log" -le $((2 * half_log)) ]; then
  base64 -w0 "$log_f"; echo; echo
else
  head -c "$half_log" "$log_f" | base64 -w0; echo
  tail -c "$half_log" "$log_f" | base64 -w0; echo
fi
if [ "$pc" -ne 0 ]; then tail -c "$err_tail" ${TEST_FILES.parserErr} | base64 -w0; fi; echo
if [ "$reparse" = 1 ] && [ "$st" = 0 ] && [ "$log" -gt 0 ]; then
  parse ${TEST_FILES.parserOut}.2 ${TEST_FILES.parserErr}.2
  out=$(stat -c %s ${TEST_FILES.parserOut}.2 2>/dev/null || echo 0)
  echo "SSR-REPARSE $pc $pt $pns $out"
  if [ "$out" -le "$max_out" ]; then base64 -w0 ${TEST_FILES.parserOut}.2; fi; echo
  if [ "$pc" -ne 0 ]; then tail -c "$err_tail" ${TEST_FILES.parserErr}.2 | base64 -w0; fi; echo
else
  echo "SSR-REPARSE -"; echo; echo
fi
if [ "$guard" = 1 ]; then
  records=(); i=2
  for f in \${g_files[@]+"\${g_files[@]}"}; do
    if [ "\${sizes[i]}" -le ${GUARD_RECORD_MAX_BYTES} ] && [ "\${#records[@]}" -lt ${GUARD_MAX_RECORDS} ]; then records+=("$f"); fi
    i=$((i + 1))
  done
  echo "SSR-GUARD $g_total \${#records[@]}"
  for f in "\${records[@]}"; do base64 -w0 "$f"; echo; done
  ${materialSectionSnippet()}
  rm -rf "$g_dir"
else
  echo "SSR-GUARD -"
fi
`;

export interface DriverOutput {
  scriptExit: number;
  scriptTimedOut: boolean;
  scriptMs: number;
  parserExit: number;
  parserTimedOut: boolean;
  parserMs: number;
  logBytes: number;
  parserStdoutBytes: number;
  /** undefined when the parser printed more than the cap. */
  parserStdout: string | undefined;
  logHead: string;
  /** Empty when the head is the whole log. */
  logTail: string;
  parserStderr: string;
  /** The second parse of the same log, when asked for and the log was real. */
  reparse?: ParserOutput;
  /** The guard's session records (still to verify), when the run was guarded. */
  guard?: { total: number; records: string[] };
  /** How the test material was protected and what of it changed, when the run was guarded. */
  material?: MaterialReport;
}

/** What one parser run printed, as the driver reports it. */
export interface ParserOutput {
  exit: number;
  timedOut: boolean;
  ms: number;
  stdoutBytes: number;
  /** undefined when the parser printed more than the cap. */
  stdout: string | undefined;
  stderr: string;
}

const decode = (line: string | undefined): string => Buffer.from(line ?? '', 'base64').toString('utf8');

/** Parse the driver's output; undefined when it is not what the driver prints (the exec failed). */
export function readDriverOutput(output: string): DriverOutput | undefined {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.startsWith('SSR-RESULT '));
  if (at < 0 || lines.length < at + 5) return undefined;
  const fields = lines[at]!.split(' ').slice(1).map(Number);
  if (fields.length !== 8 || fields.some((value) => !Number.isFinite(value))) return undefined;
  const [scriptExit, st, scriptNs, parserExit, pt, parserNs, logBytes, parserStdoutBytes] = fields as [number, number, number, number, number, number, number, number];
  const stdoutLine = lines[at + 1]!;
  const reparse = readReparse(lines.slice(at + 5));
  const guard = readGuard(lines.slice(at + 5));
  const material = readMaterialSection(lines.slice(at + 5));
  return {
    scriptExit,
    scriptTimedOut: st === 1,
    scriptMs: Math.round(scriptNs / 1e6),
    parserExit,
    parserTimedOut: pt === 1,
    parserMs: Math.round(parserNs / 1e6),
    logBytes,
    parserStdoutBytes,
    parserStdout: stdoutLine === '' && parserStdoutBytes > 0 ? undefined : decode(stdoutLine),
    logHead: decode(lines[at + 2]),
    logTail: decode(lines[at + 3]),
    parserStderr: decode(lines[at + 4]),
    ...(reparse ? { reparse } : {}),
    ...(guard ? { guard } : {}),
    ...(material ? { material } : {}),
  };
}

/** The SSR-GUARD section: how many records the guard left, and those the driver shipped. */
function readGuard(lines: string[]): { total: number; records: string[] } | undefined {
  const at = lines.findIndex((line) => line.startsWith('SSR-GUARD '));
  const fields = at >= 0 ? lines[at]!.split(' ').slice(1).map(Number) : [];
  if (fields.length !== 2 || fields.some((value) => !Number.isInteger(value) || value < 0)) return undefined;
  const [total, shipped] = fields as [number, number];
  return { total, records: lines.slice(at + 1, at + 1 + shipped).map(decode) };
}

/** The SSR-REPARSE section (absent in output of a driver not asked to reparse, e.g. old tests). */
function readReparse(lines: string[]): ParserOutput | undefined {
  const fields = lines[0]?.startsWith('SSR-REPARSE ') ? lines[0].split(' ').slice(1).map(Number) : [];
  if (fields.length !== 4 || fields.some((value) => !Number.isFinite(value))) return undefined;
  const [exit, timedOut, ns, stdoutBytes] = fields as [number, number, number, number];
  const stdoutLine = lines[1] ?? '';
  return {
    exit,
    timedOut: timedOut === 1,
    ms: Math.round(ns / 1e6),
    stdoutBytes,
    stdout: stdoutLine === '' && stdoutBytes > 0 ? undefined : decode(stdoutLine),
    stderr: decode(lines[2]),
  };
}
