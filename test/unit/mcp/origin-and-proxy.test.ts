import { describe, expect, it } from 'vitest';
import { networkPolicy } from '../../../lib/browser/network/guard.js';
import { checkCallerProxy } from '../../../lib/mcp/caller-proxy.js';
import { corsHeaders, isOriginAllowed, originPolicy, preflightHeaders } from '../../../lib/mcp/origin.js';

describe('isOriginAllowed', () => {
  const loopback = originPolicy('127.0.0.1', []);
  const hosted = originPolicy('0.0.0.0', ['https://app.example.com']);

  it.each([
    // Prepare / Act / Assess: [policy, Origin header, allowed]
    ['loopback bind, no Origin (not a browser)', loopback, undefined, true],
    ['loopback bind, a local tool', loopback, 'http://localhost:6274', true],
    ['loopback bind, 127.0.0.1 page', loopback, 'http://127.0.0.1:3000', true],
    ['loopback bind, [::1] page', loopback, 'http://[::1]:8080', true],
    ['loopback bind, a rebinding page', loopback, 'http://evil.example', false],
    ['loopback bind, a sandboxed frame', loopback, 'null', false],
    ['hosted, no Origin', hosted, undefined, true],
    ['hosted, the listed web client', hosted, 'https://app.example.com', true],
    ['hosted, listed origin in other case', hosted, 'https://APP.example.com', true],
    ['hosted, same host over http', hosted, 'http://app.example.com', false],
    ['hosted, a loopback page', hosted, 'http://localhost:3000', false],
    ['hosted, another site', hosted, 'https://evil.example', false],
  ] as const)('%s', (_label, policy, origin, allowed) => {
    expect(isOriginAllowed(policy, origin)).toBe(allowed);
  });

  it('answers allowed browser origins with CORS headers that expose the session id', () => {
    expect(corsHeaders(undefined)).toEqual({});
    expect(corsHeaders('https://app.example.com')).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      vary: 'Origin',
    });
    expect(corsHeaders('https://app.example.com')['access-control-expose-headers']).toContain('mcp-session-id');
    expect(preflightHeaders('https://app.example.com')['access-control-allow-headers']).toContain('authorization');
  });
});

describe('checkCallerProxy', () => {
  const resolve = async (host: string): Promise<string[]> =>
    host === 'proxy.example.net' ? ['93.184.216.34'] : ['10.0.0.5'];
  const guarded = networkPolicy(false, resolve);

  it('refuses any caller proxy unless the operator allows them, naming the flag', async () => {
    await expect(checkCallerProxy('http://proxy.example.net:3128', false, guarded)).rejects.toThrow(
      /--allow-caller-proxy \(BTS_ALLOW_CALLER_PROXY=true\)/,
    );
  });

  it('with caller proxies allowed, still refuses one on a private address', async () => {
    await expect(checkCallerProxy('http://proxy.example.net:3128', true, guarded)).resolves.toBeUndefined();
    await expect(checkCallerProxy('socks5://internal.corp:1080', true, guarded)).rejects.toThrow(
      'This proxy cannot be used: private network addresses are not allowed (internal.corp resolves to 10.0.0.5, a private address)',
    );
    await expect(checkCallerProxy('http://169.254.169.254:80', true, guarded)).rejects.toThrow(/link-local/);
    await expect(checkCallerProxy('http://10.0.0.5:3128', true, networkPolicy(true, resolve))).resolves.toBeUndefined();
  });
});
