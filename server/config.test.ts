import { expect, test } from 'vitest';
import { readUpstreamConfig } from '../upstream/config';
import { readConfig, upstreamForHost } from './config';

test('a bad setting stops the start and names itself', () => {
  expect(() => readConfig({ PORT: 'abc' })).toThrow(/PORT/);
  expect(() => readConfig({ UPSTREAM_URL: 'not a url' })).toThrow(/UPSTREAM_URL/);
  expect(() => readUpstreamConfig({ UPSTREAM_SEED: 'abc' })).toThrow(/UPSTREAM_SEED/);
  expect(() => readUpstreamConfig({ UPSTREAM_TEST_HOOKS: 'yes' })).toThrow(/UPSTREAM_TEST_HOOKS/);
  expect(() => readUpstreamConfig({ SMTP_URL: 'mail' })).toThrow(/SMTP_URL/);
  expect(readUpstreamConfig({ UPSTREAM_SEED: '42' }).UPSTREAM_SEED).toBe(42);
  expect(readUpstreamConfig({}).UPSTREAM_SEED).toBe(20260101);
});

test('UPSTREAM_URL=auto needs the list of page hosts, and derives api.<domain> only for them', () => {
  expect(() => readConfig({ UPSTREAM_URL: 'auto' })).toThrow(/ALLOWED_HOSTS/);
  const config = readConfig({ UPSTREAM_URL: 'auto', ALLOWED_HOSTS: 'm.broker.com, M.Broker.net' });
  expect(config.ALLOWED_HOSTS).toEqual(['m.broker.com', 'm.broker.net']);
  const allowed = config.ALLOWED_HOSTS!;
  expect(upstreamForHost('m.broker.com', 'https:', allowed)).toBe('https://api.broker.com');
  expect(upstreamForHost('M.BROKER.NET:443', 'https:', allowed)).toBe('https://api.broker.net');
  // Any other Host would choose where users' tokens go.
  for (const host of ['evil.example', 'm.broker.com.evil.example', 'api.broker.com', '', 'localhost'])
    expect(upstreamForHost(host, 'https:', allowed), host).toBeNull();
});

test('TRUST_PROXY names the proxies whose X-Forwarded-* count: loopback by default, never everyone', () => {
  expect(readConfig({}).TRUST_PROXY).toEqual(['loopback']);
  expect(readConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback' }).TRUST_PROXY).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback']);
  expect(readConfig({ TRUST_PROXY: 'fd00::/8' }).TRUST_PROXY).toEqual(['fd00::/8']);
  for (const bad of ['true', '*', '1', '10.0.0.0/33', 'nginx', '10.0.0.1/8/9', ','])
    expect(() => readConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
});
