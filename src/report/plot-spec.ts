/** One figure of a report: the page wraps `svg` in `<figure class="ssr-plot" data-plot="name">`. */
export interface PlotSpec {
  /** Stable kebab-case id (tests and links use it). */
  name: string;
  /** Page section it belongs to. */
  section: SectionId;
  title: string;
  /** What to look for: one or two sentences. */
  caption: string;
  svg: string;
  /** Smaller figure (trainer metrics come in a grid of many). */
  small?: boolean;
}

/** The sections of a report, in page order, with a one-line lead. */
export const SECTIONS = [
  { id: 'validity', title: 'Bug validity', lead: 'Does the Injector produce bugs that pass the consistency checks?' },
  { id: 'solving', title: 'Solving', lead: 'Are the bugs at the edge of the Solver’s ability?' },
  { id: 'rewards', title: 'Rewards', lead: 'What each role earns: reward hacking shows as rewards rising without the rates behind them.' },
  { id: 'diversity', title: 'Bug size and diversity', lead: 'Tunnel vision shows up here first: one strategy, one operator, ever-smaller bugs.' },
  { id: 'effort', title: 'Effort per episode', lead: 'Policy turns and tokens over all trajectories of an episode.' },
  { id: 'stability', title: 'Stability', lead: 'Instability at scale (gibberish outputs): output length, format-error rate and an entropy proxy, one value per trajectory (method §10).' },
  { id: 'throughput', title: 'Throughput', lead: 'Where the wall-clock time goes.' },
  { id: 'samples', title: 'Training samples', lead: 'What reaches the trainer, and what is dropped on the way.' },
  { id: 'pipeline', title: 'Asynchronous steps', lead: 'Sampling of the next steps overlaps each train call (--max-staleness); the price is samples a version or more old.' },
  { id: 'trainer', title: 'Trainer', lead: 'Optimizer-side health, per role when the trainer reports it.' },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];

/** How to read a distribution strip; appended to their captions. */
export const STRIP_KEY = 'Box: quartiles, bar: median, ◇: mean, dots: single values.';

/** Solve rates where the Injector's expected reward peaks (method §5). */
export const EDGE_BAND = { from: 0.2, to: 0.26, label: 'edge of the Solver’s ability: injector reward peaks near s ≈ 0.2–0.26' };
