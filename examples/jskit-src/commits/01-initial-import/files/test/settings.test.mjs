import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getSetting, mergeSettings, parseSettings } from '../src/settings.mjs';

describe('getSetting', () => {
  const settings = { server: { port: 0, host: '', tls: { enabled: false } } };
  it('reads a nested value', () => assert.equal(getSetting(settings, 'server.tls.enabled', true), false));
  it('keeps falsy values that are set', () => {
    assert.equal(getSetting(settings, 'server.port', 8080), 0);
    assert.equal(getSetting(settings, 'server.host', 'localhost'), '');
  });
  it('falls back through missing parents', () => assert.equal(getSetting(settings, 'client.retries', 3), 3));
  it('falls back for no settings at all', () => assert.equal(getSetting(undefined, 'a', 'x'), 'x'));
});

describe('mergeSettings', () => {
  it('merges nested objects without changing the inputs', () => {
    const base = { a: { b: 1, c: 2 }, list: [1] };
    const merged = mergeSettings(base, { a: { c: 3 }, list: [2] });
    assert.deepEqual(merged, { a: { b: 1, c: 3 }, list: [2] });
    assert.deepEqual(base, { a: { b: 1, c: 2 }, list: [1] });
  });
});

describe('parseSettings', () => {
  it('converts numbers and booleans, skips comments', () => {
    assert.deepEqual(parseSettings('port = 80 # web\ndebug=false\nname=api\n\n'), { port: 80, debug: false, name: 'api' });
  });
  it('refuses a line without =', () => assert.throws(() => parseSettings('oops'), /expected key=value/));
});
