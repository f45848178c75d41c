import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditional } from '../aws/dynamo.js';
import type { BusinessItem, ConsumeResult } from './model.js';
import type { BusinessRepository, UsageRepository } from './quota-repository.js';

/** The BusinessRepository on DynamoDB. */
export class DynamoBusinessRepository implements BusinessRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(businessId: string): Promise<BusinessItem | undefined> {
    const out = await this.ddb.send(new GetCommand({ TableName: this.table, Key: { businessId } }));
    return out.Item as BusinessItem | undefined;
  }

  async ensure(businessId: string, now: Date): Promise<void> {
    // A lost condition means the business already exists, which is all we wanted.
    await conditional(
      this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: { businessId, createdAt: now.toISOString() },
          ConditionExpression: 'attribute_not_exists(businessId)',
        }),
      ),
    );
  }

  async setQuota(businessId: string, limit: number, now: Date): Promise<void> {
    await this.ddb.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { businessId },
        UpdateExpression: 'SET monthlyQuota = :l, createdAt = if_not_exists(createdAt, :now)',
        ExpressionAttributeValues: { ':l': limit, ':now': now.toISOString() },
      }),
    );
  }
}

/** The UsageRepository on DynamoDB: one conditional ADD makes the count exact under concurrency. */
export class DynamoUsageRepository implements UsageRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async consume(businessId: string, month: string, limit: number): Promise<ConsumeResult> {
    const out = await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { businessId, month },
          UpdateExpression: 'ADD used :one',
          // A month without a counter admits only when the limit admits anything: a limit of 0 admits nothing.
          ConditionExpression: '(attribute_not_exists(used) AND :zero < :limit) OR used < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':zero': 0 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    if (out) return { ok: true, used: Number(out.Attributes?.used ?? 1) };
    const cur = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { businessId, month }, ConsistentRead: true }),
    );
    return { ok: false, used: Number(cur.Item?.used ?? 0) };
  }

  async refund(businessId: string, month: string): Promise<void> {
    // Never below zero: a refund without a matching count is dropped.
    await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { businessId, month },
          UpdateExpression: 'ADD used :minus',
          ConditionExpression: 'used > :zero',
          ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
        }),
      ),
    );
  }
}
