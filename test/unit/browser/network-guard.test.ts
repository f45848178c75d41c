import { describe, expect, it } from 'vitest';
import { NetworkGuard, cachingResolver, type Resolver } from '../../../lib/browser/network/guard.js';

const table: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['93.184.216.34', '10.1.2.3'],
  'v6local.example': ['fd00::5'],
};
const resolve: Resolver = async (host) => {
  const found = table[host];
  if (!found) throw new Error('ENOTFOUND');
  return found;
};

describe('NetworkGuard.check', () => {
  const guard = new NetworkGuard({ allowPrivate: false, resolve });

  it.each([
    ['http://10.0.0.1', 'Refused to load http://10.0.0.1/: private network addresses are not allowed'],
    ['http://127.0.0.1:8080/x', 'Refused to load http://127.0.0.1:8080/x: private network addresses are not allowed'],
    ['http://[::1]/', 'private network addresses are not allowed'],
    ['http://[::ffff:169.254.169.254]/', 'private network addresses are not allowed'],
    ['http://169.254.169.254/latest/meta-data/', '(169.254.169.254 is a link-local address)'],
    ['http://2130706433/', 'Refused to load http://127.0.0.1/'], // decimal form of 127.0.0.1
    ['http://0x7f.1/', 'Refused to load http://127.0.0.1/'],
    ['http://0.0.0.0/', 'private network addresses are not allowed'],
    ['http://metadata.example/', 'metadata.example resolves to 169.254.169.254'],
    ['http://mixed.example/', 'mixed.example resolves to 10.1.2.3'],
    ['http://v6local.example/', '(v6local.example resolves to fd00::5, a unique local address)'],
    ['http://nowhere.example/', 'could not be resolved'],
    ['file:///etc/passwd', 'only http and https URLs are allowed'],
    ['ftp://public.example/', 'only http and https URLs are allowed'],
    ['chrome://settings', 'only http and https URLs are allowed'],
  ])('refuses %s', async (url, reason) => {
    expect(await guard.check(url)).toContain(reason);
  });

  it.each([
    ['https://public.example/a.png'],
    ['http://93.184.216.34/'],
    ['data:text/plain,hi'],
    ['about:blank'],
    ['blob:https://public.example/1'],
  ])('allows %s', async (url) => {
    expect(await guard.check(url)).toBeUndefined();
  });

  it('allows private addresses when BTS_ALLOW_PRIVATE_NETWORK is on, but never other schemes', async () => {
    const open = new NetworkGuard({ allowPrivate: true, resolve });
    expect(await open.check('http://10.0.0.1/')).toBeUndefined();
    expect(await open.check('http://metadata.example/')).toBeUndefined();
    expect(await open.check('file:///etc/passwd')).toContain('only http and https');
  });
});

describe('cachingResolver', () => {
  it('answers repeated lookups from the cache and retries failures', async () => {
    let calls = 0;
    let fail = true;
    const cached = cachingResolver(async () => {
      calls++;
      if (fail) throw new Error('SERVFAIL');
      return ['93.184.216.34'];
    }, 10_000);
    await expect(cached('a.example')).rejects.toThrow('SERVFAIL');
    await new Promise((r) => setImmediate(r));
    fail = false;
    expect(await cached('a.example')).toEqual(['93.184.216.34']);
    expect(await cached('a.example')).toEqual(['93.184.216.34']);
    expect(calls).toBe(2);
  });
});
