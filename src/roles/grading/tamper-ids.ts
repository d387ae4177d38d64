/**
 * Prefix of the ids under which a JS runner's default parser reports tampering that the script's
 * in-process checks found (jest_json_parser.py, tap_parser.py): `ssr-tampered: <file>: <what>`,
 * always `failed`. No runner names a test this way (their ids start with the file's path), and a
 * forged one can only fail a run.
 */
export const TAMPER_ID_PREFIX = 'ssr-tampered: ';

/** The findings a run's status map reports, without the prefix, sorted. */
export function tamperFindings(statuses: Readonly<Record<string, string>>): string[] {
  return Object.keys(statuses)
    .filter((id) => id.startsWith(TAMPER_ID_PREFIX))
    .map((id) => id.slice(TAMPER_ID_PREFIX.length))
    .sort();
}
