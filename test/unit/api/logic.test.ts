import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../lib/http/routes.js';
import { effectiveMaxSteps } from '../../../lib/tasks/schemas.js';
import { resolveExtractors } from '../../../lib/design/schemas.js';
import { hashApiKey, looksLikeApiKey, mintApiKey } from '../../../lib/keys/model.js';
import { looksLikeJwt } from '../../../lib/auth/dashboard-tokens.js';
import { bearerToken } from '../../../lib/auth/use-cases.js';
import { platformStatus } from '../../../lib/credentials/model.js';
import { quotaMonth } from '../../../lib/quota/model.js';
import { loadConfig as parseConfig } from '../../../lib/config.js';
import { toTaskView, type TaskItem } from '../../../lib/tasks/model.js';

describe('matchRoute', () => {
  it.each([
    ['GET', '/v1/tasks/abc', 'found', 'get-task'],
    ['POST', '/v1/tasks/abc/cancel', 'found', 'cancel-task'],
    ['POST', '/v1/design/extract/colors', 'found', 'create-design'],
    ['GET', '/v1/tasks/', 'found', 'list-tasks'],
    ['PUT', '/v1/tasks', 'wrong-method', undefined],
    ['GET', '/v1/unknown', 'not-found', undefined],
    ['GET', '/v1/tasks/a/b', 'not-found', undefined],
  ])('%s %s → %s', (method, path, kind, handler) => {
    const m = matchRoute(method, path);
    expect(m.kind).toBe(kind);
    if (m.kind === 'found') expect(m.route.handler).toBe(handler);
  });

  it('extracts path parameters', () => {
    expect(matchRoute('GET', '/v1/end-users/a%20b/credentials')).toMatchObject({
      pathParameters: { endUserId: 'a%20b' },
    });
  });
});

describe('request rules', () => {
  it.each([
    [undefined, 25],
    [1, 1],
    [25, 25],
    [1000, 25],
  ])('maxSteps %s → %i', (req, eff) => expect(effectiveMaxSteps(req)).toBe(eff));

  it.each([
    [undefined, ['images', 'fonts', 'colors', 'icons', 'tokens', 'logo']],
    [[], ['images', 'fonts', 'colors', 'icons', 'tokens', 'logo']],
    [
      ['logo', 'x', 'images', 'logo'],
      ['images', 'logo'],
    ],
    [['x', 3], []],
  ])('extractors %j → %j', (req, out) => expect(resolveExtractors(req)).toEqual(out));

  it('computes quota months in UTC', () => {
    expect(quotaMonth(new Date('2026-11-30T23:59:59-05:00'))).toBe('2026-12');
  });
});

describe('keys and tokens', () => {
  it('mints recognisable keys whose hash is stored, not the secret', () => {
    const { secret, record } = mintApiKey('b', 'l', new Date(0));
    expect(looksLikeApiKey(secret)).toBe(true);
    expect(record.keyHash).toBe(hashApiKey(secret));
    expect(JSON.stringify(record)).not.toContain(secret);
    expect(secret.startsWith(record.prefix)).toBe(true);
    expect(mintApiKey('b', undefined, new Date(0)).secret).not.toBe(secret);
  });

  it.each([
    ['Bearer abc', 'abc'],
    ['bearer   abc  ', 'abc'],
  ])('parses %j', (h, t) => expect(bearerToken(h)).toBe(t));

  it.each([[undefined], ['Basic abc'], ['Bearer'], ['Bearer a b']])('rejects %j', (h) =>
    expect(() => bearerToken(h)).toThrow(),
  );

  it('tells JWTs from API keys', () => {
    expect(looksLikeJwt('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig')).toBe(true);
    expect(looksLikeJwt('bts_live_abc')).toBe(false);
  });
});

describe('credentials model', () => {
  it('calls a platform connected when its session cookie is present', () => {
    expect(platformStatus(new Set(['twitterCt0', 'redditSession']))).toEqual({
      twitter: false,
      reddit: true,
      tiktok: false,
      instagram: false,
    });
  });
});

describe('config', () => {
  it('parses lists and booleans and rejects bad values', () => {
    expect(parseConfig({ BTS_PROXY_POOL: 'http://a:1, http://b:2', BTS_ALLOW_PRIVATE_NETWORK: 'true' })).toMatchObject({
      BTS_PROXY_POOL: ['http://a:1', 'http://b:2'],
      BTS_ALLOW_PRIVATE_NETWORK: true,
    });
    expect(() => parseConfig({ BTS_DEFAULT_QUOTA: '-3' })).toThrow(/BTS_DEFAULT_QUOTA/);
  });
});

describe('task view', () => {
  it('shows error only on failed tasks and drops internal fields', () => {
    const item = {
      taskId: 't',
      businessId: 'b',
      status: 'completed',
      error: 'x',
      sessionSort: 's',
      agent: {},
    } as unknown as TaskItem;
    const view = toTaskView(item);
    expect(view).not.toHaveProperty('error');
    expect(view).not.toHaveProperty('businessId');
    expect(toTaskView({ ...item, status: 'failed' })).toHaveProperty('error', 'x');
  });
});
