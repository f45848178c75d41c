import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.js';

export interface AwsClients {
  ddb: DynamoDBDocumentClient;
  sqs: SQSClient;
  s3: S3Client;
  kms: KMSClient;
  destroy(): void;
}

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsClientOptions {
  /** Static credentials (emulators, a CLI's own environment); otherwise the default provider chain. */
  credentials?: AwsCredentials;
}

/** The standard credential variables of an environment given to a CLI, when it has them. */
export function credentialsFrom(env: Record<string, string | undefined>): AwsCredentials | undefined {
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/**
 * The SDK clients of one process, built from its Config. Endpoints come from the
 * AWS_ENDPOINT_URL[_<SERVICE>] settings, so LocalStack or the embedded emulators need no
 * code change. Clients are lazy: an API handler that never touches KMS never builds one.
 */
export function createAwsClients(config: Config, opts: AwsClientOptions = {}): AwsClients {
  const endpoint = (service: string | undefined): string | undefined => service ?? config.AWS_ENDPOINT_URL;
  const base = { region: config.AWS_REGION, ...(opts.credentials ? { credentials: opts.credentials } : {}) };
  let ddb: DynamoDBDocumentClient | undefined;
  let sqs: SQSClient | undefined;
  let s3: S3Client | undefined;
  let kms: KMSClient | undefined;
  return {
    get ddb() {
      ddb ??= DynamoDBDocumentClient.from(
        new DynamoDBClient({ ...base, endpoint: endpoint(config.AWS_ENDPOINT_URL_DYNAMODB) }),
        {
          marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
        },
      );
      return ddb;
    },
    get sqs() {
      const custom = endpoint(config.AWS_ENDPOINT_URL_SQS);
      // With a custom endpoint, send to it rather than to the host inside the queue URL
      // (emulators mint queue URLs whose hosts need wildcard DNS).
      sqs ??= new SQSClient({ ...base, endpoint: custom, useQueueUrlAsEndpoint: !custom });
      return sqs;
    },
    get s3() {
      const custom = endpoint(config.AWS_ENDPOINT_URL_S3);
      // Emulators (fauxqs, LocalStack) answer path-style; real S3 prefers virtual-hosted.
      s3 ??= new S3Client({ ...base, endpoint: custom, forcePathStyle: Boolean(custom) });
      return s3;
    },
    get kms() {
      kms ??= new KMSClient({ ...base, endpoint: endpoint(config.AWS_ENDPOINT_URL_KMS) });
      return kms;
    },
    destroy() {
      for (const c of [ddb, sqs, s3, kms]) c?.destroy();
      ddb = sqs = s3 = kms = undefined;
    },
  };
}
