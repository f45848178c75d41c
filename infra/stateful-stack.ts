import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  ASSETS_BUCKET,
  QUEUES,
  TABLES,
  TASK_RETENTION_DAYS,
  apiKeyTableName,
  visibilityTimeoutSeconds,
  type KeyAttribute,
  type QueueId,
  type TableId,
} from '../lib/aws/resources.js';
import type { BoundBucket, BoundQueue, BoundTable } from './bindings.js';
import { DashboardAuth } from './dashboard-auth.js';

export interface StatefulStackProps extends StackProps {
  stage: string;
  /** Keep data when the stack or a resource is deleted (prod). */
  retainData: boolean;
}

const attr = (k: KeyAttribute): Attribute => ({
  name: k.name,
  type: k.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER,
});

/**
 * Everything that holds data and must outlive a redeploy of the code: tables, the asset
 * bucket, the credentials key, the queues, and the dashboard user pool (it holds users).
 * Tables and queues come from lib/aws/resources.ts, the definitions the local runtime uses.
 */
export class StatefulStack extends Stack {
  readonly tables: Record<TableId, BoundTable>;
  readonly queues: Record<QueueId, BoundQueue & { dlq: Queue }>;
  readonly assets: Bucket;
  readonly assetsBinding: BoundBucket;
  readonly credentialsKey: Key;
  readonly dashboard: DashboardAuth;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const removalPolicy = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const tables = {} as Record<TableId, BoundTable>;
    for (const definition of Object.values(TABLES)) {
      const table = new Table(this, `${definition.id}Table`, {
        // The one physical name users type (the MCP server's --api-key-table); the rest
        // are generated so two stages deploy side by side.
        tableName: definition.id === 'ApiKeys' ? apiKeyTableName(props.stage) : undefined,
        partitionKey: attr(definition.partitionKey),
        sortKey: definition.sortKey ? attr(definition.sortKey) : undefined,
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        // AWS-managed key: encrypted at rest without every reader needing a grant on a CMK.
        encryption: TableEncryption.AWS_MANAGED,
        timeToLiveAttribute: definition.ttlAttribute,
        deletionProtection: props.retainData,
        removalPolicy,
      });
      for (const index of definition.indexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: attr(index.partitionKey),
          sortKey: index.sortKey ? attr(index.sortKey) : undefined,
        });
      }
      tables[definition.id] = { table, definition };
    }
    this.tables = tables;

    new CfnOutput(this, 'ApiKeyTableName', {
      value: tables.ApiKeys.table.tableName,
      description:
        'DynamoDB API-key table for the MCP server in table auth mode (--api-key-table); pattern bts-<stage>-api-keys',
    });

    this.credentialsKey = new Key(this, 'CredentialsKey', {
      description: `Browser Task Service (${props.stage}): end-user credential encryption`,
      enableKeyRotation: true,
      removalPolicy,
      pendingWindow: Duration.days(7),
    });

    this.assets = this.createAssetBucket();
    const exportName = `${this.stackName}-AssetsBucketArn`;
    this.assetsBinding = {
      bucketName: this.assets.bucketName,
      arn: this.exportValue(this.assets.bucketArn, { name: exportName }),
      exportName,
    };
    this.queues = this.createQueues(removalPolicy);
    this.dashboard = new DashboardAuth(this, 'Dashboard', { retainData: props.retainData });
  }

  private createAssetBucket(): Bucket {
    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // Server access log delivery supports SSE-S3 only.
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
      // Retained on every stage: generated names never collide, and deleting a non-empty
      // bucket would fail the stack deletion anyway.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket of the assets bucket; logging it to itself would loop.',
    });

    return new Bucket(this, ASSETS_BUCKET.id, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'assets/',
      lifecycleRules: [
        // Offloaded results (`results/`) expire a day after their task item (Tasks TTL);
        // assets and saved session browser state expire sooner.
        { id: 'expire-task-results', prefix: 'results/', expiration: Duration.days(TASK_RETENTION_DAYS + 1) },
        { id: 'expire-extracted-assets', prefix: 'assets/', expiration: Duration.days(ASSETS_BUCKET.assetExpiryDays) },
        { id: 'expire-session-state', prefix: 'sessions/', expiration: Duration.days(ASSETS_BUCKET.assetExpiryDays) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Presigned GET URLs are the authorisation; CORS only lets a browser page (a
      // dashboard on any origin) read the bytes, e.g. to render extracted fonts.
      cors: [{ allowedMethods: [HttpMethods.GET, HttpMethods.HEAD], allowedOrigins: ['*'], maxAge: 3600 }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private createQueues(removalPolicy: RemovalPolicy): Record<QueueId, BoundQueue & { dlq: Queue }> {
    const queues = {} as Record<QueueId, BoundQueue & { dlq: Queue }>;
    for (const definition of Object.values(QUEUES)) {
      const dlq = new Queue(this, `${definition.id}Dlq`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
        removalPolicy,
      });
      const queue = new Queue(this, `${definition.id}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // 6x the worker timeout: a message is never redelivered while a slow run of it
        // (including Lambda's own retries of the batch) may still be in flight.
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(definition)),
        deadLetterQueue: { queue: dlq, maxReceiveCount: definition.maxReceiveCount },
        removalPolicy,
      });
      queues[definition.id] = { queue, definition, dlq };
    }
    return queues;
  }
}
