/**
 * An exec's stdin carried in the exec request itself, as environment variables of the exec, when
 * it is small text: the one request then does what a file put (a `putArchive`, which the engine
 * serves by unpacking a tar in the container) and the exec did, and no `rm` of the file runs. A
 * test run's stdin (script, parser, the guard's folder, its key) is about 120 KB; the put was one of
 * the four engine requests of every run.
 *
 * Only the wrapper's first shell and `timeout` (the sandbox's own user) ever hold the variables:
 * the command gets its stdin through a here-string and the variables are unset before it starts,
 * so nothing it runs inherits them. What another process can read of them is /proc/<pid>/environ
 * of those two, under the same rule as their open files (the stdin file's descriptor): the same
 * user only.
 *
 * Not for: bytes that are not UTF-8 or hold a NUL (the engine's API carries strings; execve ends a
 * value at NUL), text that does not end in a newline (a here-string adds one: the last newline is
 * sent without it), or more than {@link STDIN_ENV_MAX_BYTES} (each variable is cut under the
 * kernel's 128 KiB per string, and all of them count against argv's limit). Those go by file.
 */

/** Prefix of the variables; `<prefix>0`, `<prefix>1`, … hold the chunks in order. */
export const STDIN_ENV_PREFIX = 'SSR_STDIN_';
/** Largest stdin sent in the request; bigger goes by file. */
export const STDIN_ENV_MAX_BYTES = 512 * 1024;
/** Bytes per variable: under MAX_ARG_STRLEN (131,072, with the name and the NUL). */
export const STDIN_ENV_CHUNK_BYTES = 96 * 1024;

/** The variables and the shell prefix that makes them the command's stdin, or undefined when it must go by file. */
export function stdinAsEnv(stdin: string | Buffer): { env: Record<string, string>; prefix: string } | undefined {
  const bytes = typeof stdin === 'string' ? Buffer.from(stdin) : stdin;
  if (bytes.length === 0 || bytes.length > STDIN_ENV_MAX_BYTES || bytes[bytes.length - 1] !== 0x0a || bytes.includes(0)) return undefined;
  // A Buffer that is not valid UTF-8 would not survive the request's JSON.
  if (typeof stdin !== 'string' && !Buffer.from(bytes.toString('utf8')).equals(bytes)) return undefined;
  const body = bytes.subarray(0, bytes.length - 1);
  const env: Record<string, string> = {};
  let at = 0;
  let index = 0;
  do {
    let end = Math.min(body.length, at + STDIN_ENV_CHUNK_BYTES);
    // Never cut inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
    while (end < body.length && (body[end]! & 0xc0) === 0x80) end--;
    env[`${STDIN_ENV_PREFIX}${index++}`] = body.subarray(at, end).toString('utf8');
    at = end;
  } while (at < body.length);
  const names = Object.keys(env);
  const joined = names.map((name) => `\${${name}}`).join('');
  return { env, prefix: `exec <<< "${joined}"; unset ${names.join(' ')}; ` };
}
