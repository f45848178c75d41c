export const CREDENTIAL_FIELDS = [
  'twitterAuthToken',
  'twitterCt0',
  'redditSession',
  'tiktokSessionId',
  'tiktokCsrfToken',
  'instagramSessionId',
  'instagramCsrfToken',
  'instagramDsUserId',
] as const;
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

export const PLATFORMS = ['twitter', 'reddit', 'tiktok', 'instagram'] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * Which fields a platform needs before we call it connected: the session cookie that
 * carries the login. The CSRF and user-id cookies are optional companions.
 */
export const PLATFORM_FIELDS: Record<Platform, { required: CredentialField[]; optional: CredentialField[] }> = {
  twitter: { required: ['twitterAuthToken'], optional: ['twitterCt0'] },
  reddit: { required: ['redditSession'], optional: [] },
  tiktok: { required: ['tiktokSessionId'], optional: ['tiktokCsrfToken'] },
  instagram: { required: ['instagramSessionId'], optional: ['instagramCsrfToken', 'instagramDsUserId'] },
};

export const isCredentialField = (v: string): v is CredentialField =>
  (CREDENTIAL_FIELDS as readonly string[]).includes(v);

export function platformStatus(present: ReadonlySet<string>): Record<Platform, boolean> {
  const out = {} as Record<Platform, boolean>;
  for (const p of PLATFORMS) out[p] = PLATFORM_FIELDS[p].required.every((f) => present.has(f));
  return out;
}
