import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { OFFLOADABLE_FIELDS, type TaskItem } from './model.js';

/**
 * Large result fields (design results, html_dump, long traces) live in S3 so task items
 * stay far below DynamoDB's 400 KB limit; reads inline them again.
 */
export interface ResultStore {
  put(key: string, value: unknown): Promise<void>;
  /** Undefined when the object is gone (expired, or the local runtime's in-memory S3 restarted). */
  get(key: string): Promise<unknown>;
}

export class S3ResultStore implements ResultStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, value: unknown): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: JSON.stringify(value),
        ContentType: 'application/json',
      }),
    );
  }

  async get(key: string): Promise<unknown> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return JSON.parse((await out.Body?.transformToString('utf-8')) ?? 'null');
    } catch (err) {
      if (err instanceof NoSuchKey || (err instanceof Error && err.name === 'NoSuchKey')) return undefined;
      throw err;
    }
  }
}

/** Items above this many bytes of JSON move their big fields to S3. */
export const OFFLOAD_THRESHOLD_BYTES = 300 * 1024;

export const resultKey = (t: Pick<TaskItem, 'businessId' | 'taskId'>): string => `results/${t.businessId}/${t.taskId}.json`;

type Offloadable = Partial<Pick<TaskItem, (typeof OFFLOADABLE_FIELDS)[number]>>;

/**
 * Moves the offloadable fields of `fields` to S3 when the would-be item is too large.
 * Returns the fields to write to DynamoDB (with `offloadedKey` set in that case).
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

export async function inlineOffloaded(store: ResultStore, item: TaskItem): Promise<TaskItem> {
  if (!item.offloadedKey) return item;
  // A lost object leaves the record readable without its large fields rather than failing the read.
  const big = (await store.get(item.offloadedKey)) as Offloadable | null | undefined;
  return { ...item, ...(big ?? {}) };
}
