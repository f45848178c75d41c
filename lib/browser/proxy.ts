import { randomInt } from 'node:crypto';
import type { BrowserContextOptions } from 'playwright-core';
import { ValidationError } from '../errors.js';

export type ProxySettings = NonNullable<BrowserContextOptions['proxy']>;

const SCHEMES = new Set(['http:', 'https:', 'socks5:']);

/** `http://user:pass@host:port` as Playwright's proxy option, credentials apart. */
export function parseProxyUrl(url: string): ProxySettings {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError('The proxy is not a valid URL');
  }
  if (!SCHEMES.has(parsed.protocol))
    throw new ValidationError(`Unsupported proxy scheme ${parsed.protocol}; use http, https or socks5`);
  const settings: ProxySettings = { server: `${parsed.protocol}//${parsed.host}` };
  if (parsed.username) settings.username = decodeURIComponent(parsed.username);
  if (parsed.password) settings.password = decodeURIComponent(parsed.password);
  return settings;
}

/** One proxy of the pool, picked at random so consecutive tasks leave from different IPs. */
export function pickProxy(pool: readonly string[], pick: (n: number) => number = randomInt): string | undefined {
  return pool.length === 0 ? undefined : pool[pick(pool.length)];
}
