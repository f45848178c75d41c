import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => rt?.stop());

const creds = (endUserId: string) => `/v1/end-users/${encodeURIComponent(endUserId)}/credentials`;

describe('end-user credentials', () => {
  it('stores encrypted values, reports booleans only, and never returns a secret', async () => {
    const put = await rt.call('PUT', creds('alice'), {
      body: { twitterAuthToken: 'tw-SECRET-1', twitterCt0: 'ct0-SECRET', redditSession: 'rd-SECRET' },
    });
    expect(put).toMatchObject({ status: 200, body: { ok: true } });
    const got = await rt.call('GET', creds('alice'));
    expect(got.body).toEqual({
      endUserId: 'alice',
      platforms: { twitter: true, reddit: true, tiktok: false, instagram: false },
    });
    expect(got.text).not.toMatch(/SECRET/);
    // At rest: ciphertext only, bound to the business and end-user.
    const item = await rt.runtime.deps.endUsers.get(rt.runtime.businessId, 'alice');
    expect(JSON.stringify(item)).not.toMatch(/SECRET/);
    expect(String(item?.twitterAuthToken)).toMatch(/^local2:/);
  });

  it('upserts: fields not mentioned keep their values', async () => {
    await rt.call('PUT', creds('bob'), { body: { instagramSessionId: 'ig', tiktokSessionId: 'tt' } });
    await rt.call('PUT', creds('bob'), { body: { tiktokCsrfToken: 'csrf' } });
    expect((await rt.call('GET', creds('bob'))).body.platforms).toMatchObject({ instagram: true, tiktok: true });
  });

  it('deletes only the listed fields, then everything', async () => {
    await rt.call('PUT', creds('carol'), { body: { twitterAuthToken: 'a', redditSession: 'b' } });
    expect((await rt.call('DELETE', creds('carol'), { body: { fields: ['redditSession'] } })).status).toBe(200);
    expect((await rt.call('GET', creds('carol'))).body.platforms).toMatchObject({ twitter: true, reddit: false });
    expect((await rt.call('DELETE', creds('carol'))).status).toBe(200);
    expect((await rt.call('GET', creds('carol'))).body.platforms).toEqual({
      twitter: false,
      reddit: false,
      tiktok: false,
      instagram: false,
    });
  });

  it('keeps two businesses’ credentials for the same endUserId apart', async () => {
    await rt.call('PUT', creds('shared'), { body: { redditSession: 'mine' } });
    expect((await rt.call('GET', creds('shared'), { key: rt.otherKey })).body.platforms).toMatchObject({
      reddit: false,
    });
    await rt.call('DELETE', creds('shared'), { key: rt.otherKey });
    expect((await rt.call('GET', creds('shared'))).body.platforms).toMatchObject({ reddit: true });
  });

  it.each([
    ['PUT with no recognized field', 'PUT', creds('x'), { unknown: 'v' }, /No recognized credential field/],
    ['PUT with a non-string value', 'PUT', creds('x'), { redditSession: 5 }, /strings/],
    ['PUT with invalid JSON', 'PUT', creds('x'), '{nope', /not valid JSON/],
    ['PUT for an endUserId of 257 characters', 'PUT', creds('e'.repeat(257)), { redditSession: 'v' }, /256/],
    ['GET for an endUserId of 257 characters', 'GET', creds('e'.repeat(257)), undefined, /256/],
    ['DELETE with fields not an array', 'DELETE', creds('x'), { fields: 'redditSession' }, /array/],
    ['DELETE with an unknown field name', 'DELETE', creds('x'), { fields: ['password'] }, /fields may only contain/],
    ['DELETE with invalid JSON', 'DELETE', creds('x'), '[', /not valid JSON/],
  ])('%s → 400', async (_n, method, path, body, message) => {
    const res = await rt.call(method, path, { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('accepts an endUserId of exactly 256 characters', async () => {
    expect((await rt.call('GET', creds('e'.repeat(256)))).status).toBe(200);
  });
});

describe('design extraction submit', () => {
  it('answers 202 with all six extractors by default and a fresh session', async () => {
    const res = await rt.call('POST', '/v1/design/extract', { body: { url: 'https://example.com/', endUserId: 'd1' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      taskId: expect.any(String),
      sessionId: expect.any(String),
      status: 'pending',
      extractors: ['images', 'fonts', 'colors', 'icons', 'tokens', 'logo'],
      enableIpRotation: false,
      createdAt: expect.any(String),
    });
    const again = await rt.call('POST', '/v1/design/extract', {
      body: { url: 'https://example.com/', endUserId: 'd1' },
    });
    expect(again.body.sessionId).not.toBe(res.body.sessionId);
    const task = await rt.call('GET', `/v1/tasks/${String(res.body.taskId)}`);
    expect(task.body).toMatchObject({ status: 'pending', endUserId: 'd1' });
  });

  it('drops unknown extractor names silently and echoes enableIpRotation', async () => {
    const res = await rt.call('POST', '/v1/design/extract', {
      body: {
        url: 'http://example.com',
        endUserId: 'd',
        extractors: ['logo', 'bogus', 'colors', 7],
        enableIpRotation: true,
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ extractors: ['colors', 'logo'], enableIpRotation: true });
  });

  it('lets the path extractor win over a body extractors list', async () => {
    const res = await rt.call('POST', '/v1/design/extract/fonts', {
      body: { url: 'https://example.com', endUserId: 'd', extractors: ['logo', 'colors'] },
    });
    expect(res.status).toBe(202);
    expect(res.body.extractors).toEqual(['fonts']);
  });

  it.each([
    [
      'no valid extractor names',
      '/v1/design/extract',
      { url: 'https://e.com', endUserId: 'd', extractors: ['nope'] },
      /No valid extractor/,
    ],
    [
      'an unknown path extractor',
      '/v1/design/extract/sounds',
      { url: 'https://e.com', endUserId: 'd' },
      /Unknown extractor/,
    ],
    ['a missing url', '/v1/design/extract', { endUserId: 'd' }, /url is required/],
    ['an ftp url', '/v1/design/extract', { url: 'ftp://e.com/x', endUserId: 'd' }, /http/],
    ['a malformed url', '/v1/design/extract', { url: 'not a url', endUserId: 'd' }, /http/],
    ['a missing endUserId', '/v1/design/extract', { url: 'https://e.com' }, /endUserId is required/],
    [
      'an endUserId of 257 characters',
      '/v1/design/extract',
      { url: 'https://e.com', endUserId: 'e'.repeat(257) },
      /256/,
    ],
    ['invalid JSON', '/v1/design/extract', '{"url":', /not valid JSON/],
  ])('rejects %s with 400', async (_n, path, body, message) => {
    const res = await rt.call('POST', path, { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});
