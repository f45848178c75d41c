import { describe, expect, it } from 'vitest';
import { bearerToken, StaticKeyAuth } from '../../../lib/mcp/auth.js';
import { hostName } from '../../../lib/mcp/http.js';

describe('bearer parsing and static auth', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it('accepts only the exact key, whatever the length of the attempt', async () => {
    const auth = new StaticKeyAuth('k-123');
    expect(await auth.authenticate('Bearer k-123')).toBe('static');
    for (const bad of ['Bearer k-12', 'Bearer k-1234', 'Bearer K-123', 'k-123', undefined])
      expect(await auth.authenticate(bad)).toBeUndefined();
  });
});

describe('hostName', () => {
  it.each([
    ['127.0.0.1:3000', '127.0.0.1'],
    ['LOCALHOST', 'localhost'],
    ['[::1]:80', '[::1]'],
    ['evil.example:80', 'evil.example'],
    [undefined, ''],
  ])('%s → %s', (header, host) => {
    expect(hostName(header)).toBe(host);
  });
});
