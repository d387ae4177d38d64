/** Escape text for XML content and attribute values (the diffs and ids in a report are untrusted text). */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export type Attrs = Record<string, string | number | null | undefined | false>;

/** One SVG/HTML element; attributes that are null, undefined or false are left out, values escaped. */
export function el(name: string, attrs: Attrs, children?: string): string {
  const parts = Object.entries(attrs)
    .filter(([, value]) => value !== null && value !== undefined && value !== false)
    .map(([key, value]) => ` ${key}="${esc(typeof value === 'number' ? round(value) : String(value))}"`);
  return children === undefined ? `<${name}${parts.join('')}/>` : `<${name}${parts.join('')}>${children}</${name}>`;
}

/** Coordinates to 0.1 px: smaller files, same picture. */
export function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/**
 * A number for an axis or a tooltip: at most 3 significant digits, k/M for large values,
 * exponents for tiny ones, no trailing zeros (`0.25`, `1.5k`, `12M`, `−0.8`, `3e−6`).
 */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const sign = value < 0 ? '−' : '';
  if (abs >= 1e6) return `${sign}${trim(abs / 1e6)}M`;
  if (abs >= 1e4) return `${sign}${trim(abs / 1e3)}k`;
  // Learning rates and KLs: 3e−6 reads better than 0.000003.
  if (abs > 0 && abs < 1e-3) {
    const [mantissa, exponent] = abs.toExponential(2).split('e');
    return `${sign}${Number(mantissa)}e${exponent!.replace('-', '−')}`;
  }
  return `${sign}${trim(abs)}`;
}

function trim(value: number): string {
  if (value === 0) return '0';
  if (value >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}

/** A native tooltip: the `<title>` child that browsers show on hover. */
export function tip(text: string): string {
  return el('title', {}, esc(text));
}
