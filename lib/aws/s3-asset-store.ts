import { PutObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config.js';
import { AppError } from '../errors.js';
import { s3Client } from './clients.js';
import type { AssetStore } from '../design/assets.js';

/** Design-extraction assets in the assets bucket, handed out as presigned GET URLs. */
export class S3AssetStore implements AssetStore {
  constructor(
    private readonly bucket: string = config().ASSETS_BUCKET,
    private readonly ttlSeconds: number = config().BTS_ASSET_URL_TTL_S,
  ) {}

  async put(input: { key: string; body: Uint8Array; contentType: string }): Promise<{ s3Key: string; downloadUrl: string }> {
    try {
      await s3Client().send(
        new PutObjectCommand({ Bucket: this.bucket, Key: input.key, Body: input.body, ContentType: input.contentType }),
      );
      const downloadUrl = await getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: this.bucket, Key: input.key }), {
        expiresIn: this.ttlSeconds,
      });
      return { s3Key: input.key, downloadUrl };
    } catch (err) {
      throw new AppError(`Asset upload failed for ${input.key}`, { cause: err });
    }
  }
}
