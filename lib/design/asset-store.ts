export interface StoredAsset {
  key: string;
  body: Uint8Array;
  contentType: string;
  /** `attachment`: browsers save the object instead of rendering it (SVG, anything not an image or font). */
  disposition?: 'attachment';
}

/** Where extracted assets go, handed out as download links (S3 with presigned GETs in production). */
export interface AssetStore {
  put(input: StoredAsset): Promise<{ s3Key: string; downloadUrl: string }>;
}
