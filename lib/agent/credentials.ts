import type { BrowserContext } from 'playwright-core';
import type { CredentialField, Platform } from '../credentials/model.js';
import { PLATFORM_FIELDS, PLATFORMS } from '../credentials/model.js';
import { TaskFailedError } from '../errors.js';

/**
 * End-user credentials for the social platforms: which platform a task aims at, and the
 * cookies its uploaded fields become. The domain mapping is injectable so a test can stand
 * a loopback fixture in for reddit; production uses PLATFORM_DOMAINS unchanged.
 */
export type PlatformDomains = Readonly<Record<Platform, readonly string[]>>;

/** Cookie domains per platform; a leading dot covers every subdomain. */
export const PLATFORM_DOMAINS: PlatformDomains = Object.freeze({
  twitter: Object.freeze(['.x.com', '.twitter.com']),
  reddit: Object.freeze(['.reddit.com']),
  tiktok: Object.freeze(['.tiktok.com']),
  instagram: Object.freeze(['.instagram.com']),
});

/** Which cookie each credential field is on the platform's site. */
export const COOKIE_NAMES: Readonly<Record<CredentialField, string>> = Object.freeze({
  twitterAuthToken: 'auth_token',
  twitterCt0: 'ct0',
  redditSession: 'reddit_session',
  tiktokSessionId: 'sessionid',
  tiktokCsrfToken: 'tt_csrf_token',
  instagramSessionId: 'sessionid',
  instagramCsrfToken: 'csrftoken',
  instagramDsUserId: 'ds_user_id',
});

/** Words that name a platform in a task ("my reddit inbox", "latest tweets", "on x.com"). */
const NAMED: Record<Platform, RegExp> = {
  twitter: /\b(twitter|tweets?|x\.com)\b/i,
  reddit: /\b(reddit|subreddit)\b|(^|\s)\/?r\/[a-z0-9_]{2,}/i,
  tiktok: /\btik\s?tok\b/i,
  instagram: /\b(instagram|insta)\b/i,
};

function hostMatches(host: string, domain: string): boolean {
  const bare = domain.replace(/^\./, '').toLowerCase();
  return host === bare || host.endsWith(`.${bare}`);
}

/** Whether a cookie of this domain belongs to one of the social platforms (its login lives there). */
export function onPlatformDomain(cookieDomain: string, domains: PlatformDomains = PLATFORM_DOMAINS): boolean {
  const host = cookieDomain.replace(/^\./, '').toLowerCase();
  return PLATFORMS.some((p) => domains[p].some((d) => hostMatches(host, d)));
}

/** Platforms a task aims at, by its start URL's host or by naming the platform. */
export function targetPlatforms(
  task: string,
  startUrl: string | undefined,
  domains: PlatformDomains = PLATFORM_DOMAINS,
): Platform[] {
  let host: string | undefined;
  try {
    host = startUrl ? new URL(startUrl).hostname.toLowerCase() : undefined;
  } catch {
    host = undefined;
  }
  return PLATFORMS.filter(
    (p) => (host !== undefined && domains[p].some((d) => hostMatches(host, d))) || NAMED[p].test(task),
  );
}

export const authRequiredMessage = (p: Platform): string =>
  `Platform authentication required for ${p}: upload the end-user's ${p} cookies with PUT /v1/end-users/{endUserId}/credentials`;

export interface PlatformCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: 'Lax' | 'None' | 'Strict';
}

/**
 * The cookies to set for `platforms`, or the task-level error naming the first platform
 * without its required fields. A domain without a dot (a loopback host in tests) is set
 * host-only and not secure, as browsers refuse Secure cookies on plain http hosts.
 */
export function platformCookies(
  platforms: readonly Platform[],
  creds: Partial<Record<CredentialField, string>>,
  domains: PlatformDomains = PLATFORM_DOMAINS,
): PlatformCookie[] {
  const cookies: PlatformCookie[] = [];
  for (const p of platforms) {
    const { required, optional } = PLATFORM_FIELDS[p];
    if (!required.every((f) => creds[f])) throw new TaskFailedError(authRequiredMessage(p));
    for (const field of [...required, ...optional]) {
      const value = creds[field];
      if (!value) continue;
      for (const domain of domains[p]) {
        const real = domain.startsWith('.');
        cookies.push({
          name: COOKIE_NAMES[field],
          value,
          domain,
          path: '/',
          secure: real,
          httpOnly: field !== 'twitterCt0',
          sameSite: 'Lax',
        });
      }
    }
  }
  return cookies;
}

export async function injectCookies(context: BrowserContext, cookies: readonly PlatformCookie[]): Promise<void> {
  if (cookies.length > 0) await context.addCookies(cookies.map((c) => ({ ...c })));
}
