import type { BusinessItem, ConsumeResult } from './model.js';

/** Businesses table: the paying account and its plan (monthly quota). */
export interface BusinessRepository {
  get(businessId: string): Promise<BusinessItem | undefined>;
  /** Creates the business if it does not exist; never overwrites. */
  ensure(businessId: string, now: Date): Promise<void>;
  setQuota(businessId: string, limit: number, now: Date): Promise<void>;
}

/** Usage table: one counter per business and month. */
export interface UsageRepository {
  /** Atomically counts one task if the month's count is below `limit`. */
  consume(businessId: string, month: string, limit: number): Promise<ConsumeResult>;
  /** Gives back one unit (a submission that failed after counting). */
  refund(businessId: string, month: string): Promise<void>;
}
