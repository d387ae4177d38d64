import { existsSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A module's record in require's cache, as far as a stand-in needs it. */
interface CachedModule {
  id: string;
  filename: string;
  loaded: boolean;
  exports: unknown;
}

/**
 * Put a stand-in for the CommonJS module at `file` into require's cache: at its first use (a call,
 * or a property read such as `tar.pack`) it loads the real module, drops itself from the cache and
 * forwards to it. For modules an importer requires at load but rarely uses: dockerode requires its
 * BuildKit session (gRPC, protobuf), its build-context packer (tar-fs) and docker-modem its SSH
 * transport (ssh2) whether used or not, some 60 ms of CPU per process that only
 * `buildImage` or an ssh:// engine needs. Must run before the importer is first required; a file
 * already loaded is left alone.
 */
export function deferRequire(file: string): void {
  if (require.cache[file] !== undefined) return;
  let real: unknown;
  let loaded = false;
  const load = (): object => {
    if (!loaded) {
      if (require.cache[file] === record) delete require.cache[file];
      real = require(file);
      loaded = true;
    }
    return real as object;
  };
  // A function target, so that the stand-in can be called as well as read.
  const standIn = new Proxy(function deferred() {}, {
    apply: (_target, self, args: unknown[]) => Reflect.apply(load() as (...args: unknown[]) => unknown, self, args),
    get: (_target, key) => Reflect.get(load(), key),
    has: (_target, key) => Reflect.has(load(), key),
  });
  const record = Object.assign(new Module(file) as unknown as CachedModule, { filename: file, loaded: true, exports: standIn });
  require.cache[file] = record as unknown as NodeJS.Module;
}

/** The files {@link deferRequire} defers for dockerode: its BuildKit session, tar-fs and docker-modem's SSH agent. */
export function dockerodeDeferredFiles(): string[] {
  const dockerode = require.resolve('dockerode');
  // docker-modem as dockerode finds it (it may nest its own copy).
  const modem = createRequire(dockerode).resolve('docker-modem');
  // A dockerode that moved them is loaded whole, as before.
  const tarFs = createRequire(dockerode).resolve('tar-fs');
  return [join(dirname(dockerode), 'session.js'), tarFs, join(dirname(modem), 'ssh.js')].filter((file) => existsSync(file));
}
