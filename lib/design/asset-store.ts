/** Where extracted assets go, handed out as download links (S3 with presigned GETs in production). */
export interface AssetStore {
  put(input: { key: string; body: Uint8Array; contentType: string }): Promise<{ s3Key: string; downloadUrl: string }>;
}
