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
 * Put a stand-in for the CommonJS module at `file` into require's cache: a function that, at its
 * first call, loads the real module (dropping the stand-in) and forwards the call to it. Only for
 * a module whose export is one function and whose importer calls it rarely, if ever: dockerode
 * requires its BuildKit session (gRPC and protobuf) and docker-modem its SSH transport at load,
 * about 50 ms of CPU per process that only `buildImage({ version: '2' })` or an ssh:// engine
 * ever needs. A stand-in never called costs nothing; one called behaves as the real export.
 * Must run before the importer is first required; a file already loaded is left alone.
 */
export function deferRequire(file: string): void {
  if (require.cache[file] !== undefined) return;
  let real: ((...args: unknown[]) => unknown) | undefined;
  const load = (): ((...args: unknown[]) => unknown) => {
    if (real !== undefined) return real;
    if (require.cache[file] === record) delete require.cache[file];
    real = require(file) as (...args: unknown[]) => unknown;
    return real;
  };
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    return load().apply(this, args);
  };
  const record = Object.assign(new Module(file) as unknown as CachedModule, { filename: file, loaded: true, exports: standIn });
  require.cache[file] = record as unknown as NodeJS.Module;
}

/** The files {@link deferRequire} defers for dockerode: its BuildKit session and docker-modem's SSH agent. */
export function dockerodeDeferredFiles(): string[] {
  const dockerode = require.resolve('dockerode');
  // docker-modem as dockerode finds it (it may nest its own copy).
  const modem = createRequire(dockerode).resolve('docker-modem');
  // A dockerode that moved them is loaded whole, as before.
  return [join(dirname(dockerode), 'session.js'), join(dirname(modem), 'ssh.js')].filter((file) => existsSync(file));
}
