import { OFFLOADABLE_FIELDS, type TaskItem } from './model.js';

/**
 * Large result fields (design results, html_dump, long traces) live in object storage so
 * task items stay far below DynamoDB's 400 KB limit; reads inline them again.
 */
export interface ResultStore {
  put(key: string, value: unknown): Promise<void>;
  /** Undefined when the object is gone (expired, or the local runtime's in-memory S3 restarted). */
  get(key: string): Promise<unknown>;
}

/** Items above this many bytes of JSON move their big fields to the result store. */
export const OFFLOAD_THRESHOLD_BYTES = 300 * 1024;

export const resultKey = (t: Pick<TaskItem, 'businessId' | 'taskId'>): string => `results/${t.businessId}/${t.taskId}.json`;

type Offloadable = Partial<Pick<TaskItem, (typeof OFFLOADABLE_FIELDS)[number]>>;

/**
 * Moves the offloadable fields of `fields` to the store when the would-be item is too
 * large. Returns the fields to write to the item (with `offloadedKey` set in that case).
 */
export async function offloadIfLarge<T extends Offloadable>(
  store: ResultStore,
  task: Pick<TaskItem, 'businessId' | 'taskId'>,
  fields: T,
): Promise<T & { offloadedKey?: string }> {
  if (Buffer.byteLength(JSON.stringify(fields)) < OFFLOAD_THRESHOLD_BYTES) return fields;
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
  return { ...(small as T), offloadedKey: key };
}

/** The item with its offloaded fields back in place; a lost object leaves it readable without them. */
export async function inlineOffloaded(store: ResultStore, item: TaskItem): Promise<TaskItem> {
  if (!item.offloadedKey) return item;
  const big = (await store.get(item.offloadedKey)) as Offloadable | null | undefined;
  return { ...item, ...(big ?? {}) };
}
