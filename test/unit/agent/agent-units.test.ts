import { describe, expect, it } from 'vitest';
import { loadConfig as parseConfig } from '../../../lib/config.js';
import {
  authRequiredMessage,
  PLATFORM_DOMAINS,
  platformCookies,
  targetPlatforms,
} from '../../../lib/agent/credentials.js';
import { resolveModel } from '../../../lib/agent/model.js';
import { Redactor } from '../../../lib/agent/redact.js';
import { compileSchema } from '../../../lib/agent/structured.js';
import { agentToolbox, providerToolName } from '../../../lib/agent/tools.js';
import { UsageMeter } from '../../../lib/agent/usage.js';
import { TaskFailedError } from '../../../lib/errors.js';

describe('model factory', () => {
  it('fails with configuration help when no model is configured', () => {
    const run = () => resolveModel(parseConfig({}));
    expect(run).toThrow(TaskFailedError);
    expect(run).toThrow(/BTS_MODEL_PROVIDER.*BTS_MODEL.*BTS_MODEL_BASE_URL/);
  });
  it('needs a base URL for openai-compatible', () => {
    expect(() => resolveModel(parseConfig({ BTS_MODEL_PROVIDER: 'openai-compatible', BTS_MODEL: 'm' }))).toThrow(
      /BTS_MODEL_BASE_URL/,
    );
  });
  it.each([
    [
      { BTS_MODEL_PROVIDER: 'bedrock', AWS_REGION: 'eu-west-1' },
      'bedrock',
      'eu.anthropic.claude-sonnet-4-20250514-v1:0',
    ],
    [
      { BTS_MODEL_PROVIDER: 'openai-compatible', BTS_MODEL: 'llama', BTS_MODEL_BASE_URL: 'http://127.0.0.1:1/v1' },
      'openai-compatible',
      'llama',
    ],
    [{ BTS_MODEL_PROVIDER: 'anthropic', BTS_MODEL: 'claude-haiku-4-5' }, 'anthropic', 'claude-haiku-4-5'],
  ])('builds %j', (env, provider, modelId) => {
    const m = resolveModel(parseConfig(env));
    expect(m).toMatchObject({ provider, modelId });
    expect(typeof m.model).toBe('object');
  });
});

describe('platform credentials', () => {
  it.each([
    ['Read my timeline', 'https://x.com/home', ['twitter']],
    ['Latest tweets from NASA', undefined, ['twitter']],
    ['Top posts in r/typescript', undefined, ['reddit']],
    ['What is trending on TikTok', undefined, ['tiktok']],
    ['My instagram followers', 'https://www.instagram.com/', ['instagram']],
    ['Price of a tent', 'https://shop.example.com/', []],
    ['Box dimensions', 'https://notx.com/', []],
  ])('%s (%s) → %j', (task, url, expected) => {
    expect(targetPlatforms(task, url)).toEqual(expected);
  });

  it('maps fields to the platform cookies on every platform domain', () => {
    const cookies = platformCookies(['twitter'], { twitterAuthToken: 'tok-aaaaaaaa', twitterCt0: 'ct0-bbbbbbbb' });
    expect(cookies.map((c) => `${c.name}@${c.domain}`).sort()).toEqual([
      'auth_token@.twitter.com',
      'auth_token@.x.com',
      'ct0@.twitter.com',
      'ct0@.x.com',
    ]);
    const ig = platformCookies(['instagram'], {
      instagramSessionId: 's',
      instagramCsrfToken: 'c',
      instagramDsUserId: 'd',
    });
    expect(ig.map((c) => c.name)).toEqual(['sessionid', 'csrftoken', 'ds_user_id']);
    expect(ig.every((c) => c.domain === '.instagram.com' && c.secure)).toBe(true);
  });

  it('requires the session cookie of each platform', () => {
    expect(() => platformCookies(['tiktok'], { tiktokCsrfToken: 'x' })).toThrow(authRequiredMessage('tiktok'));
    expect(authRequiredMessage('reddit')).toBe(
      "Platform authentication required for reddit: upload the end-user's reddit cookies with PUT /v1/end-users/{endUserId}/credentials",
    );
  });

  it('keeps the production mapping frozen; a test mapping is passed, not patched in', () => {
    expect(Object.isFrozen(PLATFORM_DOMAINS)).toBe(true);
    expect(PLATFORM_DOMAINS.reddit).toEqual(['.reddit.com']);
    const local = { ...PLATFORM_DOMAINS, reddit: ['localhost'] };
    expect(targetPlatforms('check my account', 'http://localhost:4000/account', local)).toEqual(['reddit']);
    expect(platformCookies(['reddit'], { redditSession: 'v' }, local)[0]).toMatchObject({
      domain: 'localhost',
      secure: false,
    });
  });
});

describe('redaction', () => {
  it('replaces secrets (raw and URL-encoded) and platform cookie values, longest first', () => {
    const r = new Redactor(['secret-token-123', 'short']);
    r.setPlatformCookieValues(['platform-cookie-value-xyz', 'cookie-value', '1']);
    expect(r.redact('a secret-token-123 b platform-cookie-value-xyz c short 1 cookie-value')).toBe(
      'a [redacted] b [redacted] c short 1 cookie-value',
    );
    const enc = new Redactor(['a b/c=d+e&f']);
    expect(enc.redact(`x=${encodeURIComponent('a b/c=d+e&f')}`)).toBe('x=[redacted]');
    expect(r.redactValue({ k: ['secret-token-123'], n: 2 })).toEqual({ k: ['[redacted]'], n: 2 });
  });
});

describe('structured output', () => {
  it('validates draft 2020-12 with $ref and anyOf, formats as annotations', () => {
    const v = compileSchema({
      $defs: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      type: 'object',
      properties: { id: { $ref: '#/$defs/id' }, at: { type: 'string', format: 'date-time' } },
      required: ['id'],
    });
    expect(v({ id: 3, at: 'not a date' }).ok).toBe(true);
    expect(v({ id: 1.5 })).toMatchObject({ ok: false });
    expect(v({}).errors.join()).toMatch(/must have required property 'id'/);
  });
  it('rejects an invalid schema as a task failure', () => {
    expect(() => compileSchema({ type: 'nonsense' })).toThrow(/not a valid JSON Schema/);
  });
});

describe('tools and usage', () => {
  it('offers every browser tool under a dot-free name plus done', () => {
    const names = Object.keys(agentToolbox().tools);
    expect(names).toContain('interact_find');
    expect(names).toContain('done');
    expect(names.some((n) => n.includes('.'))).toBe(false);
    expect(providerToolName('extract.page_summary')).toBe('extract_page_summary');
    expect(agentToolbox().resolve('content_get_markdown')?.name).toBe('content.get_markdown');
  });
  it('accumulates tokens and prices known models', () => {
    const m = new UsageMeter('openai', 'gpt-4.1-mini');
    m.add({ inputTokens: 1_000_000, outputTokens: 500_000 }, 10);
    m.add({ inputTokens: 0, outputTokens: 0 }, 5);
    expect(m.snapshot()).toMatchObject({
      modelCalls: 2,
      inputTokens: 1_000_000,
      outputTokens: 500_000,
      totalTokens: 1_500_000,
      costUsd: 1.2,
      modelMs: 15,
    });
    expect(new UsageMeter('x', 'scripted').snapshot().costUsd).toBeNull();
  });
});
