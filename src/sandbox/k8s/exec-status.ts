import type { V1Status } from '@kubernetes/client-node';

/** What the status channel (3) of an exec said: the command's exit, or why it never ran. */
export type ExecStatusOutcome = { status: 'exited'; exitCode: number } | { status: 'failed'; message: string };

/**
 * Decode the Status object that ends an exec (channel.k8s.io v4 and later): `Success` is exit
 * 0; a `NonZeroExitCode` failure carries the code as the message of its `ExitCode` cause. Any
 * other failure (container gone, exec refused by the runtime) ran no command at all.
 */
export function decodeExecStatus(status: V1Status): ExecStatusOutcome {
  if (status.status === 'Success') return { status: 'exited', exitCode: 0 };
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((item) => item.reason === 'ExitCode');
    const exitCode = Number(cause?.message);
    if (Number.isInteger(exitCode) && exitCode >= 0) return { status: 'exited', exitCode };
  }
  return { status: 'failed', message: status.message ?? `exec ended with status ${JSON.stringify(status)}` };
}
