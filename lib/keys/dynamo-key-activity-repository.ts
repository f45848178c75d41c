import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACTIVITY_PREFIXES } from '../aws/resources.js';
import { conditional } from '../aws/dynamo.js';
import type { KeyActivityRepository } from './key-activity-repository.js';

const lastUsedKey = (keyId: string) => ({ pk: `${ACTIVITY_PREFIXES.lastUsed}${keyId}` });

/** The KeyActivityRepository on the Activity table. */
export class DynamoKeyActivityRepository implements KeyActivityRepository {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async countRequest(
    keyId: string,
    windowStart: Date,
    windowMs: number,
    limit: number,
  ): Promise<{ admitted: boolean; hits: number }> {
    const out = await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: `${ACTIVITY_PREFIXES.rate}${keyId}#${windowStart.getTime()}` },
          // The window's item removes itself (TTL) a while after the window ends.
          UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :exp)',
          ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
          ExpressionAttributeValues: {
            ':one': 1,
            ':limit': limit,
            ':exp': Math.ceil((windowStart.getTime() + windowMs) / 1000) + 3600,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return out ? { admitted: true, hits: Number(out.Attributes?.hits ?? 1) } : { admitted: false, hits: limit };
  }

  async touchLastUsed(keyId: string, now: Date): Promise<void> {
    // Only forward: two requests racing never move lastUsedAt back.
    await conditional(
      this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: lastUsedKey(keyId),
          UpdateExpression: 'SET lastUsedAt = :now',
          ConditionExpression: 'attribute_not_exists(lastUsedAt) OR lastUsedAt < :now',
          ExpressionAttributeValues: { ':now': now.toISOString() },
        }),
      ),
    );
  }

  async lastUsed(keyIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unique = [...new Set(keyIds)];
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map(lastUsedKey);
      for (let attempt = 0; keys?.length && attempt < 5; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
        const out = await this.ddb.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys } } }));
        for (const item of out.Responses?.[this.table] ?? []) {
          found.set(String(item.pk).slice(ACTIVITY_PREFIXES.lastUsed.length), String(item.lastUsedAt));
        }
        keys = out.UnprocessedKeys?.[this.table]?.Keys as Record<string, unknown>[] | undefined;
      }
    }
    return found;
  }
}
