import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type AttributeDefinition,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import type { AwsClients } from '../aws/clients.js';
import {
  ASSETS_BUCKET,
  QUEUES,
  TABLES,
  localName,
  visibilityTimeoutSeconds,
  type TableDefinition,
} from '../aws/resources.js';

/**
 * Creates the tables, queues and bucket of `resources.ts` through ordinary SDK calls (so
 * it works against the embedded emulators and LocalStack alike) and returns the
 * environment variables that name them. Idempotent: existing resources are kept.
 */
export async function provisionLocalResources(clients: AwsClients): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const t of Object.values(TABLES)) {
    const name = localName(t.id);
    await ensureTable(clients, name, t);
    env[t.envVar] = name;
  }
  for (const q of Object.values(QUEUES)) {
    const dlq = await clients.sqs.send(new CreateQueueCommand({ QueueName: localName(`${q.id}-dlq`) }));
    const dlqAttrs = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const main = await clients.sqs.send(
      new CreateQueueCommand({
        QueueName: localName(q.id),
        Attributes: {
          VisibilityTimeout: String(visibilityTimeoutSeconds(q)),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqAttrs.Attributes?.QueueArn,
            maxReceiveCount: q.maxReceiveCount,
          }),
        },
      }),
    );
    env[q.envVar] = main.QueueUrl ?? '';
  }
  const bucket = localName(ASSETS_BUCKET.id);
  try {
    await clients.s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  env[ASSETS_BUCKET.envVar] = bucket;
  return env;
}

async function ensureTable(clients: AwsClients, name: string, t: TableDefinition): Promise<void> {
  const client = clients.ddb;
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const attrs = new Map<string, AttributeDefinition>();
  const add = (k?: { name: string; type: 'S' | 'N' }) => {
    if (k) attrs.set(k.name, { AttributeName: k.name, AttributeType: k.type });
  };
  add(t.partitionKey);
  add(t.sortKey);
  const gsis: GlobalSecondaryIndex[] = t.indexes.map((ix) => {
    add(ix.partitionKey);
    add(ix.sortKey);
    return {
      IndexName: ix.indexName,
      KeySchema: [
        { AttributeName: ix.partitionKey.name, KeyType: 'HASH' },
        ...(ix.sortKey ? [{ AttributeName: ix.sortKey.name, KeyType: 'RANGE' as const }] : []),
      ],
      Projection: { ProjectionType: 'ALL' },
    };
  });
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs.values()],
      KeySchema: [
        { AttributeName: t.partitionKey.name, KeyType: 'HASH' },
        ...(t.sortKey ? [{ AttributeName: t.sortKey.name, KeyType: 'RANGE' as const }] : []),
      ],
      GlobalSecondaryIndexes: gsis.length ? gsis : undefined,
    }),
  );
}
