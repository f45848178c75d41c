import type { Config } from '../config.js';
import { describeError, QuotaExceededError } from '../errors.js';
import type { Logger } from '../logger.js';
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

/**
 * Runs the undo steps of a failed submission in order, each one even if an earlier one
 * threw, and the refund last and always: a caller never pays for a task that did not run
 * because a clean-up step failed. Failures are logged, never thrown over the original error.
 */
export async function compensate(
  logger: Logger,
  steps: readonly [string, () => Promise<unknown>][],
  refund: Refund,
): Promise<void> {
  for (const [name, step] of [...steps, ['refund', refund] as const]) {
    try {
      await step();
    } catch (err) {
      logger.error(`compensation step failed: ${name}`, { error: describeError(err) });
    }
  }
}

/** Gives back the unit of a task that was counted but never ran (the sweeper abandoned it). */
export async function refundTask(deps: Pick<QuotaDeps, 'usage'>, businessId: string, createdAt: string): Promise<void> {
  await deps.usage.refund(businessId, quotaMonth(new Date(createdAt)));
}

/** An operator raises or lowers a business's monthly quota (admin CLI). */
export async function setQuota(
  deps: Pick<QuotaDeps, 'businesses'>,
  businessId: string,
  limit: number,
  now: Date,
): Promise<void> {
  await deps.businesses.setQuota(businessId, limit, now);
}
