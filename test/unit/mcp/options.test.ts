import { describe, expect, it } from 'vitest';
import { exposureWarning } from '../../../lib/mcp/main.js';
import { envName, HelpRequested, parseServerOptions } from '../../../lib/mcp/options.js';

describe('parseServerOptions', () => {
  it('applies the spec defaults', () => {
    expect(parseServerOptions([], {})).toEqual({
      transport: 'stdio',
      knowledgeGraphDir: 'data/knowledgegraphindex',
      authMode: 'none',
      apiKey: undefined,
      apiKeyTable: 'bts-prod-api-keys',
      authCacheTtlMs: 60_000,
      host: '127.0.0.1',
      port: 3000,
      headless: true,
      proxy: undefined,
      fingerprint: undefined,
      humanize: false,
      humanPreset: 'default',
      logLevel: 'info',
      idleTimeoutMs: 900_000,
      // Not in the spec: the network guard is on unless the operator opts out for local use.
      allowPrivateNetwork: false,
      // Not in the spec: hosting limits (lib/mcp/http.ts, session-registry.ts, origin.ts).
      allowCallerProxy: false,
      maxMcpSessionsPerKey: 10,
      maxBrowserSessions: 5,
      allowedOrigins: [],
    });
  });

  it.each([
    ['transport', 'http', { transport: 'http' }],
    ['transport', 'sse', { transport: 'http' }],
    ['knowledge-graph-dir', '/kg', { knowledgeGraphDir: '/kg' }],
    ['auth-mode', 'dynamodb', { authMode: 'table' }],
    ['auth-mode', 'table', { authMode: 'table' }],
    ['api-key-table', 'keys', { apiKeyTable: 'keys' }],
    ['auth-cache-ttl', '5', { authCacheTtlMs: 5 }],
    ['host', '::1', { host: '::1' }],
    ['port', '8080', { port: 8080 }],
    ['headless', 'false', { headless: false }],
    ['headed', 'true', { headless: false }],
    ['proxy', 'socks5://p:1080', { proxy: 'socks5://p:1080' }],
    ['fingerprint', 'abc', { fingerprint: 'abc' }],
    ['humanize', 'true', { humanize: true }],
    ['human-preset', 'careful', { humanPreset: 'careful' }],
    ['log-level', 'debug', { logLevel: 'debug' }],
    ['idle-timeout', '1000', { idleTimeoutMs: 1000 }],
    ['allow-private-network', 'true', { allowPrivateNetwork: true }],
    ['allow-caller-proxy', 'true', { allowCallerProxy: true }],
    ['max-mcp-sessions-per-key', '3', { maxMcpSessionsPerKey: 3 }],
    ['max-browser-sessions', '2', { maxBrowserSessions: 2 }],
    [
      'allowed-origins',
      'https://App.example.com, http://localhost:6274',
      { allowedOrigins: ['https://app.example.com', 'http://localhost:6274'] },
    ],
  ])('--%s %s and its %s mirror', (flag, value, expected) => {
    // Prepare / Act / Assess: the same value through the flag, the flag=value form and the env variable.
    const viaFlag = parseServerOptions([`--${flag}`, value], {});
    const viaEquals = parseServerOptions([`--${flag}=${value}`], {});
    const viaEnv = parseServerOptions([], { [envName(flag)]: value });
    for (const o of [viaFlag, viaEquals, viaEnv]) expect(o).toMatchObject(expected);
  });

  it('lets a flag win over its environment variable', () => {
    expect(parseServerOptions(['--port', '4000'], { BTS_PORT: '5000', BTS_HOST: 'localhost' })).toMatchObject({
      port: 4000,
      host: 'localhost',
    });
  });

  it('accepts bare switches', () => {
    expect(parseServerOptions(['--headed', '--humanize', '--port', '1'], {})).toMatchObject({
      headless: false,
      humanize: true,
      port: 1,
    });
    expect(parseServerOptions(['--allow-caller-proxy', '--allow-private-network'], {})).toMatchObject({
      allowCallerProxy: true,
      allowPrivateNetwork: true,
    });
  });

  it('describes every flag in --help', () => {
    const help = (() => {
      try {
        parseServerOptions(['--help'], {});
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    for (const flag of [
      'allow-caller-proxy',
      'max-mcp-sessions-per-key',
      'max-browser-sessions',
      'allowed-origins',
      'allow-private-network',
    ]) {
      expect(help).toMatch(new RegExp(`--${flag}\\s+\\S`));
    }
  });

  it.each([
    [['--bogus'], /Unknown flag --bogus/],
    [['--port', 'abc'], /--port \(BTS_PORT\)/],
    [['--port', '70000'], /--port/],
    [['--transport', 'pigeon'], /--transport/],
    [['--auth-mode', 'static'], /needs --api-key/],
    [['--human-preset', 'reckless'], /--human-preset/],
    [['--proxy', 'ftp://x'], /--proxy/],
    [['--headless', 'maybe'], /--headless/],
    [['--auth-cache-ttl', '-1'], /--auth-cache-ttl/],
    [['--host'], /needs a value/],
    [['--max-browser-sessions', '0'], /--max-browser-sessions/],
    [['--max-mcp-sessions-per-key', '-2'], /--max-mcp-sessions-per-key/],
    [['--allowed-origins', 'https://app.example.com/path'], /--allowed-origins .*origins like/],
    [['--allowed-origins', '*'], /--allowed-origins/],
    [['--allowed-origins', 'null'], /--allowed-origins/],
    [['positional'], /Unknown flag positional/],
  ])('refuses %j', (args, message) => {
    expect(() => parseServerOptions(args, {})).toThrow(message);
  });

  it('refuses a bad env value naming the variable', () => {
    expect(() => parseServerOptions([], { BTS_LOG_LEVEL: 'loud' })).toThrow(/BTS_LOG_LEVEL/);
  });

  it('answers --help with the usage', () => {
    expect(() => parseServerOptions(['--help'], {})).toThrow(HelpRequested);
  });
});

describe('exposureWarning', () => {
  it.each([
    ['0.0.0.0', 'none', true],
    ['::', 'none', true],
    ['0.0.0.0', 'static', false],
    ['127.0.0.1', 'none', false],
  ] as const)('host %s with auth %s warns: %s', (host, authMode, warns) => {
    expect(Boolean(exposureWarning({ host, authMode }))).toBe(warns);
  });
});
