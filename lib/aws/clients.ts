import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.js';

/**
 * The only place SDK clients are built. Each is created once per process (warm Lambda
 * containers reuse them). Endpoints come from the SDK's own AWS_ENDPOINT_URL /
 * AWS_ENDPOINT_URL_<SERVICE> variables, so LocalStack or the embedded emulators need no
 * code change.
 */
let ddb: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let s3: S3Client | undefined;
let kms: KMSClient | undefined;

const region = (): string => config().AWS_REGION;

export function documentClient(): DynamoDBDocumentClient {
  ddb ??= DynamoDBDocumentClient.from(new DynamoDBClient({ region: region() }), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return ddb;
}

export function sqsClient(): SQSClient {
  // With a custom endpoint, send to it rather than to the host inside the queue URL
  // (emulators mint queue URLs whose hosts need wildcard DNS).
  const custom = Boolean(process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL);
  sqs ??= new SQSClient({ region: region(), useQueueUrlAsEndpoint: !custom });
  return sqs;
}

export function s3Client(): S3Client {
  // Emulators (fauxqs, LocalStack) answer path-style; real S3 prefers virtual-hosted.
  const custom = Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL);
  s3 ??= new S3Client({ region: region(), forcePathStyle: custom });
  return s3;
}

export function kmsClient(): KMSClient {
  kms ??= new KMSClient({ region: region() });
  return kms;
}

/** Drops cached clients; the local runtime and tests call it after changing endpoints. */
export function resetClients(): void {
  ddb?.destroy();
  sqs?.destroy();
  s3?.destroy();
  kms?.destroy();
  ddb = sqs = s3 = kms = undefined;
}
