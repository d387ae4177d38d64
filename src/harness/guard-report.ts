import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** A test's outcome as the runner itself reported it to the guard plugin (guard/ssr_grading_guard.py). */
export const guardOutcomeSchema = z.enum(['passed', 'failed', 'skipped', 'xfailed', 'xpassed', 'missing']);
export type GuardOutcome = z.infer<typeof guardOutcomeSchema>;

/** The signed body of one session record, as the plugin writes it. */
const guardBodySchema = z.object({
  version: z.literal(1),
  pid: z.number(),
  exitstatus: z.number(),
  outcomes: z.record(z.string(), guardOutcomeSchema),
  tampered: z.array(z.string()),
  foreignHooks: z.array(z.string()),
});
const guardRecordSchema = z.object({ body: z.string(), mac: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * What the guard plugin saw in one test run: the sessions whose signed record came back, their
 * merged outcomes (any non-pass wins over a pass) and any tampering with the runner. A run whose
 * script never started pytest (another runner) has `sessions: 0`.
 */
export interface GuardReport {
  /** Records with a valid signature: one per pytest session that reached its end. */
  sessions: number;
  /** Records that did not verify (a bad signature, not JSON, too many or too big): forged or cut. */
  invalid: number;
  /** cwd-relative pytest node id (what `-rA` prints) → outcome. */
  outcomes: Record<string, GuardOutcome>;
  /** Runner functions rebound by repository code, and reporting hooks defined in repository code. */
  tampered: string[];
}

/** Lower rank wins when one id is reported twice: a pass never hides a failure. */
const RANK: Record<GuardOutcome, number> = { failed: 0, missing: 1, xpassed: 2, xfailed: 3, skipped: 4, passed: 5 };

function verifies(record: z.infer<typeof guardRecordSchema>, key: string): boolean {
  const expected = createHmac('sha256', key).update(record.body, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(record.mac, 'hex'));
}

function parseRecord(text: string, key: string): z.infer<typeof guardBodySchema> | undefined {
  try {
    const record = guardRecordSchema.safeParse(JSON.parse(text));
    if (!record.success || !verifies(record.data, key)) return undefined;
    const body = guardBodySchema.safeParse(JSON.parse(record.data.body));
    return body.success ? body.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verify and merge the guard's session records. `total` is how many record files the driver
 * found (it ships at most a few); the ones it did not ship count as invalid.
 */
export function readGuardRecords(records: readonly string[], total: number, key: string): GuardReport {
  const report: GuardReport = { sessions: 0, invalid: Math.max(0, total - records.length), outcomes: {}, tampered: [] };
  const tampered = new Set<string>();
  for (const text of records) {
    const body = parseRecord(text, key);
    if (!body) {
      report.invalid++;
      continue;
    }
    report.sessions++;
    for (const name of [...body.tampered, ...body.foreignHooks]) tampered.add(name);
    for (const [id, outcome] of Object.entries(body.outcomes)) {
      const previous = report.outcomes[id];
      if (previous === undefined || RANK[outcome] < RANK[previous]) report.outcomes[id] = outcome;
    }
  }
  report.tampered = [...tampered].sort();
  return report;
}

/**
 * Whether a run was guarded well enough to hold later runs to it: records came back, all verify,
 * nothing was tampered with, and every test the parser calls passed is one the runner passed (so
 * the parser's ids are pytest's). An honest run of another runner, or of a parser with its own
 * ids, is simply not guarded: grading then trusts the parser alone, as before.
 */
export function isGuardedRun(guard: GuardReport | undefined, statuses: Readonly<Record<string, string>>, tolerated: readonly string[] = []): boolean {
  if (!guard || guard.sessions === 0 || guard.invalid > 0 || untolerated(guard.tampered, tolerated).length > 0) return false;
  return Object.entries(statuses).every(([id, status]) => status !== 'passed' || guard.outcomes[id] === 'passed');
}

/** The reports that a written test file makes: never tolerated, whoever made them. */
const TEST_FILE_WRITE = 'test-file-write:';

/**
 * What the guard reported on an honest repo's own clean runs (its tests walk the heap, load native
 * code, set a trace hook): those exact reports (`<kind>:<event> by <file>`) are the repo's, so later
 * runs may repeat them and are still held to the rest of the guard, where before one such report
 * left every run of the repo unguarded. A write to test material is never tolerated.
 */
export function toleratedTampering(guards: readonly (GuardReport | undefined)[]): string[] {
  const entries = guards.flatMap((guard) => guard?.tampered ?? []).filter((entry) => !entry.startsWith(TEST_FILE_WRITE));
  return [...new Set(entries)].sort();
}

/** The reports of `tampered` that are not among `tolerated`. */
export function untolerated(tampered: readonly string[], tolerated: readonly string[]): string[] {
  if (tolerated.length === 0) return [...tampered];
  const allowed = new Set(tolerated);
  return tampered.filter((entry) => !allowed.has(entry));
}
