/** Okabe–Ito: distinguishable with the common colour-vision deficiencies, then a few extras. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8C6D31', '#7F3C8D', '#F0E442', '#3B3B3B'] as const;

/** Colours for a fixed meaning. */
export const COLORS = {
  injector: '#D55E00',
  solver: '#0072B2',
  order1: '#0072B2',
  order2: '#CC79A7',
  valid: '#009E73',
  discarded: '#9E9E9E',
  other: '#BDBDBD',
  heldOut: '#E69F00',
} as const;

/** The i-th palette colour, cycling. */
export function colorAt(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

/** Rejections: warm colours first, never the green of "valid" nor the grey of "discarded". */
const WARM = ['#D55E00', '#E69F00', '#CC79A7', '#7F3C8D', '#F0E442', '#8C6D31', '#56B4E9', '#0072B2'] as const;

export function warmColorAt(index: number): string {
  return WARM[index % WARM.length]!;
}
