/**
 * Child process of bwrap-sandbox.test.ts, started in a private mount namespace where the host's
 * cgroup mounts are read-only: acquires a bwrap sandbox from the template given as JSON in argv[2],
 * runs one command, and prints what the provider says about its limits as one JSON line.
 */
import { BwrapProvider } from '../../../src/sandbox/bwrap/bwrap-provider.js';
import { describeCgroupSupport } from '../../../src/sandbox/bwrap/cgroup-probe.js';
import type { SandboxTemplate } from '../../../src/sandbox/sandbox.js';

const template = JSON.parse(process.argv[2] ?? '') as SandboxTemplate;
const provider = new BwrapProvider();
const sandbox = await provider.acquire(template);
try {
  const result = await sandbox.exec('echo up; cat /proc/self/cgroup | grep -c "/ssr/" || true');
  const support = await provider.limitEnforcement();
  console.log(JSON.stringify({ output: result.output, exitCode: result.exitCode, summary: describeCgroupSupport(support), unenforced: support.unenforced.length }));
} finally {
  await sandbox.dispose();
}
