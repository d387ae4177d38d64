/** The trainer metrics the report plots, in display order, with what each one is for. */
export const TRAINER_METRICS = [
  { key: 'loss', label: 'loss', caption: 'Policy-gradient loss. It is not a score: watch for spikes and NaN rather than a trend.' },
  { key: 'grad_norm', label: 'grad norm', caption: 'Gradient norm before clipping. Spikes precede the gibberish collapse seen at scale.' },
  { key: 'approx_kl', label: 'approx KL / token', caption: 'Drift from the sampling policy. A steady climb means the updates outrun the samples.' },
  { key: 'clip_frac_low', label: 'clip fraction (low)', caption: 'Share of tokens whose ratio hit the lower clip. High values: the step is too large.' },
  { key: 'clip_frac_high', label: 'clip fraction (high)', caption: 'Share of tokens whose ratio hit the upper clip.' },
  { key: 'entropy', label: 'entropy / token', caption: 'Token entropy. Falling to 0: the policy became deterministic (mode collapse).' },
  { key: 'tokens_per_second', label: 'tokens / s', caption: 'Trainer throughput over sequence tokens.' },
  { key: 'lr', label: 'learning rate', caption: 'Schedule check: warm-up then constant.' },
] as const;
export type TrainerMetricKey = (typeof TRAINER_METRICS)[number]['key'];

export const TRAINER_SCOPES = ['all', 'injector', 'solver'] as const;
export type TrainerScope = (typeof TRAINER_SCOPES)[number];

/** One step's trainer metrics: metric → scope (whole batch, per role) → value. */
export type TrainerPoint = Partial<Record<TrainerMetricKey, Partial<Record<TrainerScope, number>>>>;

// grad_norm, gradNorm and grad-norm are one metric: the Python trainer and a TS writer may differ.
const normalise = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const WANTED = new Map(TRAINER_METRICS.map((metric) => [normalise(metric.key), metric.key]));

function numbersOf(record: unknown): Partial<Record<TrainerMetricKey, number>> {
  const found: Partial<Record<TrainerMetricKey, number>> = {};
  if (!isRecord(record)) return found;
  for (const [key, value] of Object.entries(record)) {
    const metric = WANTED.get(normalise(key));
    if (metric && typeof value === 'number' && Number.isFinite(value)) found[metric] = value;
  }
  return found;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Pick the plotted metrics out of a step's free-form trainer record (the trainer's step response,
 * `{version, metrics}`, or the metrics themselves): top-level numbers are the whole batch,
 * `roles.<role>.<metric>` (or `<role>.<metric>`) the per-role values.
 */
export function trainerPoint(response: Readonly<Record<string, unknown>>): TrainerPoint {
  const trainer = isRecord(response.metrics) ? response.metrics : response;
  const point: TrainerPoint = {};
  const add = (scope: TrainerScope, values: Partial<Record<TrainerMetricKey, number>>): void => {
    for (const [metric, value] of Object.entries(values) as [TrainerMetricKey, number][]) point[metric] = { ...point[metric], [scope]: value };
  };
  add('all', numbersOf(trainer));
  const roles = isRecord(trainer.roles) ? trainer.roles : trainer;
  add('injector', numbersOf(roles.injector));
  add('solver', numbersOf(roles.solver));
  return point;
}
