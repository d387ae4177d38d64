/** A y axis: its (rounded-out) domain, the tick values and the value → pixel map. */
export interface LinearAxis {
  min: number;
  max: number;
  ticks: number[];
  at: (value: number) => number;
}

function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 2.5 ? 2.5 : scaled <= 5 ? 5 : 10) * power;
}

/**
 * A linear axis over `[min, max]` mapped onto pixels `[from, to]` (from = bottom). The domain is
 * rounded out to whole tick steps, ~`count` ticks; an empty span becomes one unit around the value.
 */
export function linearAxis(domain: [number, number], pixels: [number, number], count = 5): LinearAxis {
  let [min, max] = domain;
  if (!Number.isFinite(min) || !Number.isFinite(max)) [min, max] = [0, 1];
  if (max - min < 1e-12) [min, max] = min === 0 ? [0, 1] : [min - Math.abs(min) / 2, max + Math.abs(max) / 2];
  const step = niceStep(max - min, count);
  const low = Math.floor(min / step + 1e-9) * step;
  const high = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let tick = low; tick <= high + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  const [from, to] = pixels;
  return { min: low, max: high, ticks, at: (value) => from + ((value - low) / (high - low)) * (to - from) };
}

/** Equal bands for categories (steps, bins) across `[left, right]`. */
export interface BandAxis {
  count: number;
  width: number;
  /** Pixel centre of category `index`. */
  center: (index: number) => number;
}

export function bandAxis(count: number, pixels: [number, number]): BandAxis {
  const width = (pixels[1] - pixels[0]) / Math.max(count, 1);
  return { count, width, center: (index) => pixels[0] + width * (index + 0.5) };
}

/**
 * Indices of the categories to label: at most `maxLabels`, every 1, 2 or 5 × 10ⁿ-th one (so a
 * long run reads 0, 20, 40, … rather than 0, 13, 26, …).
 */
export function labelledIndices(count: number, maxLabels: number): number[] {
  const raw = count / Math.max(maxLabels, 1);
  let every = 1;
  for (let power = 1; every < raw; power *= 10) every = [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
  const indices: number[] = [];
  for (let index = 0; index < count; index += every) indices.push(index);
  return indices;
}
