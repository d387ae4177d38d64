import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { runCli } from '../../helpers/cli.js';

const SANDBOX_COMMANDS = ['build-image', 'corpus', 'doctor', 'eval', 'grade', 'inject', 'mine', 'selfplay', 'solve', 'test-run', 'validate'];

describe('--docker-host <url>', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is offered by every command that creates sandboxes (and doctor, to check the engines)', async () => {
    const offering = (await buildProgram()).commands.filter((command) => command.options.some((option) => option.long === '--docker-host'));
    expect(offering.map((command) => command.name()).sort()).toEqual(SANDBOX_COMMANDS);
  });

  it('refuses every engine that does not answer at start-up, naming each and its fix, before anything runs', async () => {
    const run = await runCli(['selfplay', '--repo', 'pyledger', '--steps', '1', '--policy', 'procedural', '--out', '/tmp/ssr-never-written',
      '--docker-host', 'unix:///nonexistent-ssr.sock', '--docker-host', 'tcp://127.0.0.1:1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unix:\/\/\/nonexistent-ssr\.sock: no Docker engine answers on that socket .*start one there/);
    expect(run.stderr).toMatch(/tcp:\/\/127\.0\.0\.1:1: no Docker engine is reachable there .*check the host and port/);
  });

  it.each([
    [['--docker-host', 'http://h'], {}, /--docker-host http:\/\/h: unknown scheme http:/],
    [[], { SSR_DOCKER_HOSTS: 'unix:///a.sock,docker.sock' }, /SSR_DOCKER_HOSTS docker\.sock: not a URL/],
    [['--slots-per-host', '2'], {}, /--slots-per-host needs --docker-host/],
    [['--docker-host', 'unix:///a.sock', '--sandbox', 'bwrap'], {}, /--docker-host .* cannot go with --sandbox bwrap/],
  ])('ssr selfplay %j %j is a usage error saying why', async (flags, env: Record<string, string>, why) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const run = await runCli(['selfplay', '--repo', 'pyledger', '--steps', '1', '--policy', 'procedural', '--out', '/tmp/ssr-never-written', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(why);
  });
});
