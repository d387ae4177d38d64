import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineAddresses, parseEngineAddress } from '../../../../src/sandbox/engines/engine-address.js';

describe('parseEngineAddress', () => {
  it.each([
    ['unix:///var/run/docker.sock', 'unix', 'unix:///var/run/docker.sock', { socketPath: '/var/run/docker.sock' }],
    ['tcp://10.0.0.5:2375', 'tcp', 'tcp://10.0.0.5:2375', { host: '10.0.0.5', port: 2375, protocol: 'http' }],
    ['tcp://builder', 'tcp', 'tcp://builder', { host: 'builder', port: 2375, protocol: 'http' }],
    ['ssh://ci@build-7:2222', 'ssh', 'ssh://ci@build-7:2222', { protocol: 'ssh', host: 'build-7', port: 2222, username: 'ci' }],
    ['ssh://build-7', 'ssh', 'ssh://build-7', { protocol: 'ssh', host: 'build-7', port: 22 }],
  ])('%s is a %s engine', (url, kind, name, options) => {
    const address = parseEngineAddress(url);
    expect(address.kind).toBe(kind);
    expect(address.name).toBe(name);
    expect(address.options).toMatchObject(options);
  });

  it('reads the TLS cert dir of tcp://…?certs= and names the engine without the query', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssr-certs-'));
    for (const file of ['ca.pem', 'cert.pem', 'key.pem']) await writeFile(join(dir, file), `${file} bytes`);
    const address = parseEngineAddress(`tcp://h:2376?certs=${dir}`);
    expect(address).toMatchObject({ kind: 'tls', name: 'tcp://h:2376', certDir: dir, options: { host: 'h', port: 2376, protocol: 'https' } });
    expect(String(address.options.ca)).toBe('ca.pem bytes');
    expect(String(address.options.key)).toBe('key.pem bytes');
  });

  it.each([
    ['docker.sock', /not a URL/],
    ['http://h:2375', /unknown scheme http:/],
    ['unix://', /no socket path/],
    ['tcp://h:2376?certs=/nonexistent-ssr-certs', /cannot read ca\.pem in the cert dir \/nonexistent-ssr-certs/],
    ['tcp://h:2376?tls=1', /unknown option tls/],
  ])('refuses %s, naming the URL and the forms it may take', (url, why) => {
    expect(() => parseEngineAddress(url)).toThrow(why);
    expect(() => parseEngineAddress(url)).toThrow(/--docker-host .*expected unix:\/\/\/path\/docker\.sock/);
  });
});

describe('engineAddresses', () => {
  it('takes the flags before SSR_DOCKER_HOSTS, and SSR_DOCKER_HOSTS comma separated', () => {
    const env = { SSR_DOCKER_HOSTS: 'unix:///a.sock, tcp://b:2375 ,' };
    expect(engineAddresses(undefined, env).map((address) => address.name)).toEqual(['unix:///a.sock', 'tcp://b:2375']);
    expect(engineAddresses(['unix:///c.sock'], env).map((address) => address.name)).toEqual(['unix:///c.sock']);
    expect(engineAddresses([], {})).toEqual([]);
  });

  it('refuses one engine given twice (it would get twice its slots)', () => {
    expect(() => engineAddresses(['unix:///a.sock', 'unix:///a.sock'])).toThrow(/unix:\/\/\/a\.sock is given twice/);
  });
});
