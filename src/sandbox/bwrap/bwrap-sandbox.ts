import { constants } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { posix } from 'node:path';
import { EngineError } from '../../util/engine-error.js';
import { REPO_DIR, type ExecOptions, type ExecResult, type Sandbox, type SandboxLimits } from '../sandbox.js';
import { checkExecOptions } from '../check-exec-options.js';
import { bwrapArgs } from './bwrap-args.js';
import { startBwrap, type BwrapHandle } from './bwrap-run.js';
import type { SandboxCgroup } from './sandbox-cgroup.js';
import { readOomKills } from '../oom-kills.js';
import { resolveSandboxPath, type SandboxMounts } from './sandbox-path.js';

/** O_NONBLOCK: opening a FIFO planted by a command must fail or return at once, never hang. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface BwrapSandboxParts {
  id: string;
  /** Host directory owning everything of this sandbox (removed by dispose). */
  dir: string;
  mounts: SandboxMounts;
  rootfs: string;
  limits: SandboxLimits;
  /** Enforces `limits` for every command; absent where cgroups are unusable (rlimits only). */
  cgroup?: SandboxCgroup;
}

/**
 * A sandbox that is a private copy of the template's repository plus its own scratch, /tmp and
 * home directories (so files persist between commands, as in a container); every `exec` is a
 * fresh bwrap over the shared read-only rootfs. Nothing runs between two commands: background
 * processes die with the command that started them (unlike the Docker backend).
 */
export class BwrapSandbox implements Sandbox {
  readonly backend = 'bwrap' as const;
  readonly id: string;
  private readonly running = new Set<BwrapHandle>();
  private disposed?: Promise<void>;

  constructor(private readonly parts: BwrapSandboxParts) {
    this.id = parts.id;
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    checkExecOptions(options);
    const args = bwrapArgs({
      rootfs: this.parts.rootfs,
      repoDir: this.parts.mounts.repo,
      scratchDir: this.parts.mounts.scratch,
      tmpDir: this.parts.mounts.tmp,
      homeDir: this.parts.mounts.home,
      cwd: posix.resolve(REPO_DIR, options.cwd ?? REPO_DIR),
      env: options.env ?? {},
      memoryMb: this.parts.limits.memoryMb,
      pids: this.parts.limits.pids,
      command,
    });
    const handle = startBwrap(args, {
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      stdin: options.stdin,
      cgroupProcs: this.parts.cgroup?.procsFiles,
    });
    this.running.add(handle);
    try {
      return await handle.result;
    } finally {
      this.running.delete(handle);
    }
  }

  async readFile(path: string): Promise<Buffer> {
    this.assertLive();
    const target = await resolveSandboxPath(path, this.parts.mounts);
    if (!target.exists) throw new EngineError('sandbox-failed', `readFile: no such file in sandbox ${this.id}: ${target.sandboxPath}`);
    const handle = await open(target.hostPath, READ_FLAGS).catch((error: Error) => {
      throw new EngineError('sandbox-failed', `readFile ${target.sandboxPath}: ${error.message}`);
    });
    try {
      if (!(await handle.stat()).isFile()) throw new EngineError('sandbox-failed', `readFile: ${target.sandboxPath} is not a regular file`);
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async writeFile(path: string, content: string | Buffer, options: { mode?: number } = {}): Promise<void> {
    this.assertLive();
    const target = await resolveSandboxPath(path, this.parts.mounts);
    // Every missing directory lies below a checked, link-free existing one.
    if (!target.exists) await mkdir(posix.dirname(target.hostPath), { recursive: true });
    const handle = await open(target.hostPath, WRITE_FLAGS, 0o644).catch((error: Error) => {
      throw new EngineError('sandbox-failed', `writeFile ${target.sandboxPath}: ${error.message}`);
    });
    try {
      if (!(await handle.stat()).isFile()) throw new EngineError('sandbox-failed', `writeFile: ${target.sandboxPath} is not a regular file`);
      await handle.writeFile(content);
      // A new file gets exactly 0644 whatever the umask; an existing one keeps its mode unless told.
      if (options.mode !== undefined || !target.exists) await handle.chmod(options.mode ?? 0o644);
    } finally {
      await handle.close();
    }
  }

  async oomKills(): Promise<number | null> {
    return this.parts.cgroup ? readOomKills(this.parts.cgroup.dirs) : null;
  }

  /** Kill any running command, remove the cgroup and delete the sandbox's directory (repo, scratch, /tmp, home). Idempotent. */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      const results = [...this.running].map((handle) => {
        handle.kill();
        return handle.result;
      });
      await Promise.allSettled(results);
      await this.parts.cgroup?.dispose();
      await rm(this.parts.dir, { recursive: true, force: true, maxRetries: 3 });
    })();
    return this.disposed;
  }

  private assertLive(): void {
    if (this.disposed) throw new EngineError('sandbox-failed', `sandbox ${this.id} was disposed`);
  }
}
