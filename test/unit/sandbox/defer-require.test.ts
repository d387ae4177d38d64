import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deferRequire, dockerodeDeferredFiles } from '../../../src/sandbox/docker/defer-require.js';
import { dockerode } from '../../../src/sandbox/docker/docker-client.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'ssr-defer-require-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deferRequire', () => {
  it('keeps a required module unloaded until its export is called, then calls the real one', () => {
    const heavy = join(dir, 'heavy.cjs');
    const importer = join(dir, 'importer.cjs');
    writeFileSync(heavy, 'globalThis.heavyLoads = (globalThis.heavyLoads ?? 0) + 1;\nmodule.exports = function (a, b) { return `${this.name}:${a + b}`; };\n');
    writeFileSync(importer, "const heavy = require('./heavy.cjs');\nmodule.exports = { name: 'importer', add: heavy };\n");
    const loads = (): number => (globalThis as { heavyLoads?: number }).heavyLoads ?? 0;
    deferRequire(heavy);
    const api = require(importer) as { add: (a: number, b: number) => string };
    expect(loads()).toBe(0);
    // `this` and the arguments reach the real function; it loads once.
    expect(api.add(1, 2)).toBe('importer:3');
    expect(api.add(2, 3)).toBe('importer:5');
    expect(loads()).toBe(1);
    expect(require(heavy)).not.toBe(api.add);
  });

  it('loads a module exporting an object at its first property read (tar-fs: `tar.pack`)', () => {
    const heavy = join(dir, 'heavy-object.cjs');
    writeFileSync(heavy, 'globalThis.objectLoads = (globalThis.objectLoads ?? 0) + 1;\nmodule.exports = { pack: (what) => `packed ${what}` };\n');
    const loads = (): number => (globalThis as { objectLoads?: number }).objectLoads ?? 0;
    deferRequire(heavy);
    const tar = require(heavy) as { pack: (what: string) => string };
    expect(loads()).toBe(0);
    expect(tar.pack('context')).toBe('packed context');
    expect('pack' in tar).toBe(true);
    expect(loads()).toBe(1);
  });

  it("defers dockerode's BuildKit session, tar-fs and SSH agent, and an ssh:// engine still gets the real agent", async () => {
    // If a dockerode upgrade moves these files the deferral stops silently: this says so.
    expect(dockerodeDeferredFiles().map((file) => file.split('/').slice(-2).join('/'))).toEqual(['lib/session.js', 'tar-fs/index.js', 'lib/ssh.js']);
    const Docker = dockerode();
    // Port 1 refuses at once: the error is the real ssh2 client's, not a stand-in's.
    const refused = await new Docker({ protocol: 'ssh', host: '127.0.0.1', port: 1, username: 'nobody' }).ping().then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code ?? error.message,
    );
    expect(refused).toBe('ECONNREFUSED');
  });
});
