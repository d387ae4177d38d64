import type Docker from 'dockerode';

/** Environment variable carrying an exec's id into every process it starts. */
export const EXEC_MARKER = 'SSR_EXEC';

/**
 * Kills, repeatedly until none is left, every process whose environment carries the exec's marker:
 * that reaches what escaped the in-container `timeout` (setsid, daemons, double forks) and spares
 * other execs of the same sandbox. Fork bombs converge because a SIGKILLed process cannot fork.
 */
const SWEEP = `for _ in $(seq 1 50); do
  pids=$(grep -lsxzF "${EXEC_MARKER}=$1" /proc/[0-9]*/environ | cut -d/ -f3)
  [ -z "$pids" ] && exit 0
  kill -9 $pids 2>/dev/null
  sleep 0.02
done
exit 1`;

/** Start the sweep and wait for it at most `budgetMs`; never throws (the sandbox may be gone or out of pids). */
export async function killByMarker(container: Docker.Container, marker: string, budgetMs: number): Promise<boolean> {
  const attempt = async (): Promise<boolean> => {
    const exec = await container.exec({ Cmd: ['bash', '-c', SWEEP, 'ssr-sweep', marker], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    stream.resume();
    await new Promise((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', resolve);
    });
    return (await exec.inspect()).ExitCode === 0;
  };
  const deadline = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), budgetMs).unref());
  return Promise.race([attempt().catch(() => false), deadline]);
}
