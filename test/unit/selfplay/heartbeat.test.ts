import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heartbeatSchema, HeartbeatWriter, type Heartbeat } from '../../../src/selfplay/heartbeat.js';

const read = async (path: string) => heartbeatSchema.parse(JSON.parse(await readFile(path, 'utf8')));

/** The first heartbeat on disk that passes `ok` (timers on a loaded machine run late: poll, don't sleep a guess). */
async function readUntil(path: string, ok: (heartbeat: Heartbeat) => boolean): Promise<Heartbeat> {
  for (let i = 0; i < 500; i++) {
    const heartbeat = await read(path).catch(() => null);
    if (heartbeat && ok(heartbeat)) return heartbeat;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no heartbeat in ${path} passed the check in 5 s`);
}

describe('HeartbeatWriter', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rewrites heartbeat.json on its timer with fresh progress, then the final status', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-heartbeat-'));
    const path = join(dir, 'heartbeat.json');
    let episodesDone = 0;
    const writer = new HeartbeatWriter(path, 5, () => ({ step: 1, stepsDone: 0, episodesDone }), 20);
    const first = await readUntil(path, () => true);
    expect(first).toMatchObject({ status: 'running', step: 1, steps: 5, episodesDone: 0, pid: process.pid });
    episodesDone = 3;
    // Only the timer writes here: a later beat with the new count proves it keeps beating.
    const second = await readUntil(path, (heartbeat) => heartbeat.episodesDone === 3);
    expect(Date.parse(second.time)).toBeGreaterThanOrEqual(Date.parse(first.time));
    await writer.stop('stopped');
    const last = await read(path);
    expect(last.status).toBe('stopped');
    // Stopped means stopped: no beat overwrites the final status.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await read(path)).time).toBe(last.time);
  });
});
