import { createRequire } from 'node:module';
import type { ProgressEvent, ProgressSink } from './progress.js';

/** cli-progress only where there is a terminal to draw on: elsewhere (CI, pipes, benches) its load is start-up time for nothing. */
const loadBar = (): typeof import('cli-progress') => createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');

export interface ProgressDisplay {
  sink: ProgressSink;
  stop: () => void;
}

/**
 * A progress bar on a terminal; elsewhere (CI logs, pipes) one plain line per stage or 10% step,
 * so logs stay readable. Events of a new stage restart the bar (each stage has its own fraction).
 */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  if (stream.isTTY) {
    const bar = new (loadBar().SingleBar)({ stream, format: '{stage} [{bar}] {percentage}% | ETA {eta_formatted} | {message}', hideCursor: true, clearOnComplete: false });
    let started = false;
    let lastStage = '';
    return {
      sink: (event: ProgressEvent) => {
        if (!started) bar.start(100, 0, { stage: event.stage, message: '' });
        started = true;
        const value = event.fraction !== undefined ? Math.round(event.fraction * 100) : event.stage === lastStage ? undefined : 0;
        lastStage = event.stage;
        bar.update(value ?? bar.getProgress() * 100, { stage: event.stage, message: event.message.slice(0, 60) });
      },
      stop: () => {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let last = { stage: '', decile: -1 };
  return {
    sink: (event: ProgressEvent) => {
      const decile = event.fraction === undefined ? -1 : Math.floor(event.fraction * 10);
      if (event.stage === last.stage && decile === last.decile && event.fraction !== undefined) return;
      last = { stage: event.stage, decile };
      const percent = event.fraction === undefined ? '' : ` ${Math.round(event.fraction * 100)}%`;
      stream.write(`[${event.stage}${percent}] ${event.message}\n`);
    },
    stop: () => undefined,
  };
}
