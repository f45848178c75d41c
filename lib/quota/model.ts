export interface BusinessItem {
  businessId: string;
  /** Monthly task quota; absent means the configured default. */
  monthlyQuota?: number;
  createdAt: string;
}

export type ConsumeResult = { ok: true; used: number } | { ok: false; used: number };

/** Quota months are calendar months in UTC (SPEC §8). */
export const quotaMonth = (now: Date): string => now.toISOString().slice(0, 7);
