/**
 * Per-key activity kept outside the ApiKeys table (the Activity table), so data-plane
 * functions never need write access to the keys: request counts per fixed window (the
 * per-key rate limit) and lastUsedAt for the dashboard.
 */
export interface KeyActivityRepository {
  /**
   * Counts one request of `keyId` in the window starting at `windowStart`. Not admitted
   * (and not counted) when the window already holds `limit` requests.
   */
  countRequest(
    keyId: string,
    windowStart: Date,
    windowMs: number,
    limit: number,
  ): Promise<{ admitted: boolean; hits: number }>;
  touchLastUsed(keyId: string, now: Date): Promise<void>;
  /** lastUsedAt by key id, for the keys that have one. */
  lastUsed(keyIds: readonly string[]): Promise<Map<string, string>>;
}
