import { MAX_JSON_DEPTH, nestsDeeperThan } from '../validation.js';
import { OFFLOADABLE_FIELDS, type TaskItem } from './model.js';

/**
 * Large result fields (design results, html_dump, long traces) live in object storage so
 * task items stay far below DynamoDB's 400 KB limit; reads inline them again.
 */
export interface ResultStore {
  put(key: string, value: unknown): Promise<void>;
  /** Undefined when the object is gone (expired, or the local runtime's in-memory S3 restarted). */
  get(key: string): Promise<unknown>;
  /** A time-limited GET URL of a stored object: what a read hands out for fields it cannot inline. */
  downloadUrl(key: string, ttlSeconds: number): Promise<string>;
}

/** Items whose JSON would pass this many bytes move their big fields to the result store. */
export const OFFLOAD_THRESHOLD_BYTES = 300 * 1024;

/**
 * One object per attempt: a late run of an earlier attempt (swept, then finishing after
 * all) writes its own object and can never overwrite the one a finished attempt points to.
 */
export const resultKey = (t: Pick<TaskItem, 'businessId' | 'taskId' | 'attempts'>): string =>
  `results/${t.businessId}/${t.taskId}/attempt-${t.attempts ?? 1}.json`;

type Offloadable = Partial<Pick<TaskItem, (typeof OFFLOADABLE_FIELDS)[number]>>;

/**
 * Whether the item as it will be after this write (everything it already holds plus
 * `fields`) is too big for DynamoDB, or nests too deep for it. The item's own fields
 * count too: a 64 KB schema and a 20 KB prompt leave less room for the result.
 */
export function needsOffload(item: TaskItem, fields: Record<string, unknown>): boolean {
  const merged = { ...item, ...fields };
  return (
    Buffer.byteLength(JSON.stringify(merged)) >= OFFLOAD_THRESHOLD_BYTES || nestsDeeperThan(merged, MAX_JSON_DEPTH)
  );
}

/**
 * Moves the offloadable fields of `fields` to the store when the would-be item is too
 * large (or `force`). Returns the fields to write to the item, with `offloadedKey` set in
 * that case; the item's step trace is emptied, since the object holds the full one.
 */
export async function offloadIfLarge<T extends Offloadable & Record<string, unknown>>(
  store: ResultStore,
  task: TaskItem,
  fields: T,
  opts: { force?: boolean } = {},
): Promise<T & { offloadedKey?: string }> {
  if (!opts.force && !needsOffload(task, fields)) return fields;
  const big: Record<string, unknown> = {};
  const small: Record<string, unknown> = { ...fields };
  for (const f of OFFLOADABLE_FIELDS) {
    if (small[f] !== undefined) {
      big[f] = small[f];
      delete small[f];
    }
  }
  const key = resultKey(task);
  await store.put(key, big);
  return { ...(small as T), stepSummaries: [], offloadedKey: key };
}

/** The item with its offloaded fields back in place; a lost object leaves it readable without them. */
export async function inlineOffloaded(store: ResultStore, item: TaskItem): Promise<TaskItem> {
  if (!item.offloadedKey) return item;
  const big = (await store.get(item.offloadedKey)) as Offloadable | null | undefined;
  return { ...item, ...(big ?? {}) };
}
