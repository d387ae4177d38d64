/** `0.42` → `42%`; null → `–`. */
export function percent(rate: number | null): string {
  return rate === null ? '–' : `${Math.round(rate * 100)}%`;
}

/** A signed mean with two decimals (`+0.33`, `−0.80`); null → `–`. */
export function signed(value: number | null): string {
  if (value === null) return '–';
  const text = Math.abs(value).toFixed(2);
  return `${value < 0 && text !== '0.00' ? '−' : '+'}${text}`;
}

/** Milliseconds as `45s`, `12m 05s`, `3h 07m`. */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** A number with exactly `digits` decimals (columns line up); null → `–`. */
export function fixed(value: number | null, digits = 2): string {
  return value === null ? '–' : value.toFixed(digits);
}
