import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ResultStore } from './result-store.js';

/** The ResultStore on S3: JSON objects under `results/` (and `sessions/`) of the assets bucket. */
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

  async downloadUrl(key: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: ttlSeconds });
  }
}
