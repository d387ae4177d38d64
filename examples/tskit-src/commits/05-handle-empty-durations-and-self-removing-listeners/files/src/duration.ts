/** Milliseconds per unit, largest first (the order formatDuration writes them in). */
const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['w', 604_800_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

const ALIASES: Readonly<Record<string, string>> = {
  ms: 'ms', msec: 'ms', millisecond: 'ms', milliseconds: 'ms',
  s: 's', sec: 's', secs: 's', second: 's', seconds: 's',
  m: 'm', min: 'm', mins: 'm', minute: 'm', minutes: 'm',
  h: 'h', hr: 'h', hrs: 'h', hour: 'h', hours: 'h',
  d: 'd', day: 'd', days: 'd',
  w: 'w', week: 'w', weeks: 'w',
};

const LONG_NAMES: Readonly<Record<string, string>> = { w: 'week', d: 'day', h: 'hour', m: 'minute', s: 'second', ms: 'millisecond' };

function unitMs(unit: string): number {
  return UNITS.find(([name]) => name === unit)![1];
}

/**
 * Milliseconds in a duration such as `1h30m`, `1.5 hours`, `-2d 4h` or `250ms`. A bare number is
 * milliseconds. A leading `-` negates the whole duration.
 * @throws RangeError quoting the text when it is empty or holds something that is not a duration.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') throw new RangeError('empty duration: expected e.g. "1h30m" or "250ms"');
  const negative = trimmed.startsWith('-');
  const body = negative ? trimmed.slice(1).trim() : trimmed;
  if (/^\d+(\.\d+)?$/.test(body)) return (negative ? -1 : 1) * Number(body);
  const part = /(\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*,?\s*/y;
  let total = 0;
  let at = 0;
  while (at < body.length) {
    part.lastIndex = at;
    const match = part.exec(body);
    if (!match) throw new RangeError(`invalid duration "${text}" at "${body.slice(at)}"`);
    const unit = ALIASES[match[2]!.toLowerCase()];
    if (unit === undefined) throw new RangeError(`unknown unit "${match[2]}" in duration "${text}"`);
    total += Number(match[1]) * unitMs(unit);
    at = part.lastIndex;
  }
  return negative ? -total : total;
}

export interface FormatOptions {
  /** Write `1 hour 2 minutes` instead of `1h 2m`. */
  long?: boolean;
  /** Keep at most this many units, the largest ones, rounding the last one kept. Default: all. */
  maxUnits?: number;
}

/** A duration in milliseconds as text: `formatDuration(5_400_000)` is `1h 30m`. */
export function formatDuration(ms: number, options: FormatOptions = {}): string {
  if (!Number.isFinite(ms)) throw new RangeError(`cannot format ${ms} as a duration`);
  const maxUnits = options.maxUnits ?? UNITS.length;
  if (maxUnits < 1) throw new RangeError(`maxUnits must be at least 1, got ${maxUnits}`);
  let rest = Math.round(Math.abs(ms));
  const parts: Array<[string, number]> = [];
  for (const [unit, size] of UNITS) {
    if (parts.length === maxUnits) break;
    if (rest < size) continue;
    const last = parts.length === maxUnits - 1;
    const amount = last ? Math.round(rest / size) : Math.floor(rest / size);
    parts.push([unit, amount]);
    rest -= amount * size;
  }
  if (parts.length === 0) return options.long ? '0 milliseconds' : '0ms';
  const text = parts
    .map(([unit, amount]) => (options.long ? `${amount} ${LONG_NAMES[unit]}${amount === 1 ? '' : 's'}` : `${amount}${unit}`))
    .join(' ');
  return ms < 0 ? `-${text}` : text;
}
