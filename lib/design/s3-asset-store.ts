import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError } from '../errors.js';
import type { AssetStore, StoredAsset } from './asset-store.js';

/** The AssetStore on S3: objects under `assets/` of the assets bucket, handed out as presigned GET URLs. */
export class S3AssetStore implements AssetStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly ttlSeconds: number,
  ) {}

  async put(input: StoredAsset): Promise<{ s3Key: string; downloadUrl: string }> {
    try {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: input.key,
          Body: input.body,
          ContentType: input.contentType,
          ...(input.disposition ? { ContentDisposition: 'attachment' } : {}),
        }),
      );
      const downloadUrl = await getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: input.key }), {
        expiresIn: this.ttlSeconds,
      });
      return { s3Key: input.key, downloadUrl };
    } catch (err) {
      throw new AppError(`Asset upload failed for ${input.key}`, { cause: err });
    }
  }
}
