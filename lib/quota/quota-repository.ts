import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditional } from '../aws/dynamo.js';

export interface BusinessItem {
  businessId: string;
  /** Monthly task quota; absent means the configured default. */
  monthlyQuota?: number;
  createdAt: string;
}

export interface BusinessRepository {
  get(businessId: string): Promise<BusinessItem | undefined>;
  /** Creates the business if it does not exist; never overwrites. */
  ensure(businessId: string, now: Date): Promise<void>;
  setQuota(businessId: string, limit: number, now: Date): Promise<void>;
}

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

export type ConsumeResult = { ok: true; used: number } | { ok: false; used: number };

export interface UsageRepository {
  /** Atomically counts one task if the month's count is below `limit`. */
  consume(businessId: string, month: string, limit: number): Promise<ConsumeResult>;
  /** Gives back one unit (a submission that failed after counting). */
  refund(businessId: string, month: string): Promise<void>;
}

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
          ConditionExpression: 'attribute_not_exists(used) OR used < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': limit },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    if (out) return { ok: true, used: Number(out.Attributes?.used ?? 1) };
    const cur = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { businessId, month }, ConsistentRead: true }),
    );
    return { ok: false, used: Number(cur.Item?.used ?? limit) };
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

/** Quota months are calendar months in UTC. */
export const quotaMonth = (now: Date): string => now.toISOString().slice(0, 7);
