/**
 * Per-business running slots (fair scheduling): a worker holds one while it runs a task
 * of that business. Each slot has a lease, so a crashed worker's slot frees itself.
 */
export interface RunningSlots {
  /** Takes a slot for `taskId` unless `cap` other live slots of the business are held; re-acquiring one's own slot renews it. */
  acquire(businessId: string, taskId: string, cap: number, leaseUntil: Date, now: Date): Promise<boolean>;
  release(businessId: string, taskId: string): Promise<void>;
}
