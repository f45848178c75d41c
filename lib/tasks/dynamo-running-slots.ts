import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACTIVITY_PREFIXES } from '../aws/resources.js';
import { conditional } from '../aws/dynamo.js';
import type { RunningSlots } from './running-slots.js';

interface SlotsItem {
  pk: string;
  /** taskId → lease end (ISO). */
  slots?: Record<string, string>;
  version?: number;
}

const ATTEMPTS = 5;

/**
 * RunningSlots on the Activity table: one item per business holding its slots as a map,
 * written with optimistic concurrency (a version check), so two workers never both take
 * the last slot. Expired leases are dropped on every write.
 */
export class DynamoRunningSlots implements RunningSlots {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async acquire(businessId: string, taskId: string, cap: number, leaseUntil: Date, now: Date): Promise<boolean> {
    const pk = `${ACTIVITY_PREFIXES.running}${businessId}`;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const out = await this.ddb.send(new GetCommand({ TableName: this.table, Key: { pk }, ConsistentRead: true }));
      const item = out.Item as SlotsItem | undefined;
      const live = Object.entries(item?.slots ?? {}).filter(
        ([id, until]) => id !== taskId && until > now.toISOString(),
      );
      if (live.length >= cap) return false;
      const version = item?.version ?? 0;
      const written = await conditional(
        this.ddb.send(
          new PutCommand({
            TableName: this.table,
            Item: {
              pk,
              slots: Object.fromEntries([...live, [taskId, leaseUntil.toISOString()]]),
              version: version + 1,
              // An idle business's item goes away a day after its last lease.
              expiresAt: Math.ceil(leaseUntil.getTime() / 1000) + 86_400,
            },
            ConditionExpression: 'attribute_not_exists(pk) OR version = :v',
            ExpressionAttributeValues: { ':v': version },
          }),
        ),
      );
      if (written) return true;
    }
    // Heavy contention on one business: treat as full; the task is retried shortly.
    return false;
  }

  async release(businessId: string, taskId: string): Promise<void> {
    await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: `${ACTIVITY_PREFIXES.running}${businessId}` },
          UpdateExpression: 'REMOVE slots.#t ADD version :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#t': taskId },
          ExpressionAttributeValues: { ':one': 1 },
        }),
      ),
    );
  }
}
