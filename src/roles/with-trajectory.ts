import { JsonlTrajectoryWriter, type TrajectorySink } from '../agent/trajectory.js';

/** Run `fn` with a JSONL trajectory at `path` (or none when `path` is undefined), always closing the file. */
export async function withTrajectory<T>(path: string | undefined, fn: (sink: TrajectorySink | undefined) => Promise<T>): Promise<T> {
  if (path === undefined) return fn(undefined);
  const writer = await JsonlTrajectoryWriter.open(path);
  try {
    return await fn(writer);
  } finally {
    await writer.close();
  }
}
