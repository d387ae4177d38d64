import type { EpisodeRecord } from '../corpus/episode-record.js';
import { LeaseHealth } from './lease-health.js';
import { runEpisode } from './run-episode.js';
import type { SelfplayContext } from './selfplay-context.js';
import type { PlannedEpisode } from './stages/01-prepare.js';

/**
 * Run one planned episode (order-2 episodes grown from it included) with every sandbox on one
 * engine of the fleet: the least loaded that is up. When that engine is lost mid-episode, what
 * ran there was recorded as discarded (infrastructure, never a reward); the episode is placed
 * again on an engine that is up and runs again under the same id, so the run store ends with one
 * completed record of it, and the bugs it wrote are content-addressed (no duplicate). Without a
 * fleet it is runEpisode.
 */
export async function runPlacedEpisode(ctx: SelfplayContext, planned: PlannedEpisode): Promise<EpisodeRecord | null> {
  const { fleet } = ctx;
  if (!fleet) return runEpisode(ctx, planned);
  for (;;) {
    if (ctx.health.stopped !== null) return null;
    let lease;
    try {
      lease = await fleet.lease(ctx.health.signal);
    } catch {
      return null; // the run is stopping while this episode waited for a slot
    }
    const health = new LeaseHealth(ctx.health, fleet, lease);
    try {
      const record = await runEpisode({ ...ctx, provider: lease.provider, health }, planned);
      if (!health.engineLost) return record;
      ctx.progress.planned(1);
    } finally {
      lease.release();
    }
  }
}
