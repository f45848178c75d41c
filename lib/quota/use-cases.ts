import type { Config } from '../config.js';
import { QuotaExceededError } from '../errors.js';
import { quotaMonth } from './model.js';
import type { BusinessRepository, UsageRepository } from './quota-repository.js';

export interface QuotaDeps {
  businesses: BusinessRepository;
  usage: UsageRepository;
  config: Pick<Config, 'BTS_DEFAULT_QUOTA'>;
}

/** Gives the counted unit back; submissions call it on every failure after counting. */
export type Refund = () => Promise<void>;

/**
 * Counts one task against the business's monthly quota (SPEC §8), or throws the 429.
 * Returns the refund for the compensation paths of the caller.
 */
export async function consumeQuota(deps: QuotaDeps, businessId: string, now: Date): Promise<Refund> {
  const month = quotaMonth(now);
  const limit = (await deps.businesses.get(businessId))?.monthlyQuota ?? deps.config.BTS_DEFAULT_QUOTA;
  const r = await deps.usage.consume(businessId, month, limit);
  if (!r.ok) throw new QuotaExceededError(limit, r.used);
  return () => deps.usage.refund(businessId, month);
}

/** An operator raises or lowers a business's monthly quota (admin CLI). */
export async function setQuota(deps: Pick<QuotaDeps, 'businesses'>, businessId: string, limit: number, now: Date): Promise<void> {
  await deps.businesses.setQuota(businessId, limit, now);
}
