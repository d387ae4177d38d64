import type { EpisodeRecord } from '../../corpus/episode-record.js';
import { discardCategory } from '../discard.js';
import { GAVE_UP, NO_SUBMISSION } from '../episode-counts.js';

/** Why an order-1 episode gave no valid bug: its class (for counting) and the recorded reason. */
export interface EpisodeLoss {
  /** `gave-up`, `no-submission`, `invalid:<check>` or `discarded:<stage>:<code>`. */
  type: string;
  reason: string;
}

/**
 * The loss of an order-1 episode, or null when it gave a valid bug. `checkReason` is the failed
 * consistency check's own reason (from the bug's validation.json) when there is one.
 */
export function episodeLoss(record: EpisodeRecord, checkReason?: string): EpisodeLoss | null {
  if (record.status === 'discarded') {
    const reason = record.discardReason ?? 'unknown';
    return { type: `discarded:${discardCategory(reason)}`, reason };
  }
  if (record.valid === true) return null;
  if (record.valid === false) return { type: `invalid:${record.failedCheck ?? 'unknown'}`, reason: checkReason ?? record.failedCheck ?? 'no reason stored' };
  if (record.injectorExit?.status === 'gave-up') return { type: GAVE_UP, reason: record.injectorExit.reason ?? 'no reason given' };
  return { type: NO_SUBMISSION, reason: `the Injector ended ${record.injectorExit?.status ?? '(no exit recorded)'} without a usable bug` };
}
